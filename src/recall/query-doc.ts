/**
 * `QueryDoc` validation (SPEC §4.1, §7, §8). Produces the normalised request
 * or throws MemoryError with the spec's code. A malformed `since` is not an
 * error: it is carried as `sinceInvalid` so that target contributes no hits.
 */
import { MemoryError } from "../core/errors.ts";
import { parseWith } from "../core/schema.ts";
import { INGEST_KINDS, type IngestKind } from "../core/types.ts";
import { queryAction, type InjectionPolicy } from "../hygiene/injection-policy.ts";
import { screen } from "../hygiene/screen.ts";
import { LEGS, type Leg, parseSince, RecallBody } from "./recall-schema.ts";

export { LEGS, type Leg, parseSince };

/** A validated recall request. */
export interface RecallQuery {
  query: string;
  limit: number;
  domain?: string;
  strict: boolean;
  provenance: boolean;
  /** Ingest-kind filter in storage (from `source` or `sources`). */
  kinds?: IngestKind[];
  /** Leg filter after fusion. */
  leg?: Exclude<Leg, "both">;
  sinceMs?: number;
  sinceInvalid?: boolean;
  lex?: string;
  vec?: string;
  hyde?: string;
  intent?: string;
  trace: boolean;
  graph: boolean;
  atMs?: number;
  at?: string;
  includeDecayed: boolean;
  /** Calibrated abstention applies (this project's per-request switch, `abstain: false`; issue 24). */
  abstain: boolean;
}

function isKind(v: string): v is IngestKind {
  return (INGEST_KINDS as readonly string[]).includes(v);
}

/** Validates a QueryDoc (the `RecallBody` schema); `sourceParam` is the `?source=` query parameter (SPEC §4.1). */
export function validateQueryDoc(raw: unknown, sourceParam?: string, policy: InjectionPolicy = "quarantine"): RecallQuery {
  const b = parseWith(RecallBody, raw);
  const screened = screen(b.query);
  if (queryAction(screened.verdict, policy, screened.reasons) === "reject") throw new MemoryError("query_rejected", "query matches a blocked prompt-injection pattern");
  const out: RecallQuery = {
    query: b.query, limit: b.limit, strict: b.strict, provenance: b.provenance, trace: b.trace, graph: b.graph,
    includeDecayed: b.include_decayed, abstain: b.abstain,
  };
  if (b.domain !== undefined) out.domain = b.domain;
  // SPEC §4.1: `source` may also come as a query parameter, which wins over the body's.
  const source = sourceParam ?? b.source;
  if (source !== undefined) {
    if (isKind(source)) out.kinds = [source];
    else if ((LEGS as readonly string[]).includes(source)) {
      if (source !== "both") out.leg = source as Exclude<Leg, "both">;
    } else throw new MemoryError("source_invalid", `unknown source '${source}'`, { field: "source", allowed: [...INGEST_KINDS, ...LEGS] }, 422);
  }
  if (b.sources?.length) out.kinds = [...new Set<IngestKind>([...(out.kinds ?? []), ...b.sources])].sort();
  if (b.since !== undefined) {
    const ms = parseSince(b.since);
    if (ms === undefined) out.sinceInvalid = true;
    else out.sinceMs = ms;
  }
  for (const f of ["lex", "vec", "hyde"] as const) {
    const v = b[f];
    if (v !== undefined && v.trim() !== "") out[f] = v;
  }
  if (b.intent !== undefined) out.intent = b.intent;
  if (b.at !== undefined) {
    const ms = parseSince(b.at)!;
    out.atMs = ms;
    out.at = new Date(ms).toISOString();
  }
  return out;
}
