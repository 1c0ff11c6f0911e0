/**
 * Origin rule and deterministic stored confidence (SPEC §2.1): anything not
 * ingested as `manual` or `memory` is labelled `imported`; an
 * unverified-external-source discount of 0.9 keys on a source string
 * carrying connector or web markers, except for chunks stamped `markdown`.
 */
import type { IngestKind, Origin } from "../core/types.ts";

/** The discount for unverified external sources. */
export const UNVERIFIED_SOURCE_DISCOUNT = 0.9;

// Connector and web markers (this project's list): a URL scheme, a `www.` host, or a connector/web label.
const MARKERS = /(https?:\/\/|www\.|\bconnector\b|\bconnector:|\bweb\b|\bweb:|\bcrawl)/i;

/** True when a provenance source string carries connector or web markers. */
export function isUnverifiedSource(sourceRef: string | undefined): boolean {
  return sourceRef !== undefined && MARKERS.test(sourceRef);
}

/** Origin label for an ingest kind, given the caller's context. */
export function originFor(kind: IngestKind, ctx: { channel?: boolean; manualOrigin?: Origin }): Origin {
  if (ctx.channel) return "channel";
  if (kind === "manual" || kind === "memory") return ctx.manualOrigin ?? "operator";
  return "imported";
}

/** Stored confidence for a new chunk. */
export function confidenceFor(kind: IngestKind, sourceRef: string | undefined, base = 1): number {
  if (kind !== "markdown" && isUnverifiedSource(sourceRef)) return Math.round(base * UNVERIFIED_SOURCE_DISCOUNT * 1e6) / 1e6;
  return base;
}
