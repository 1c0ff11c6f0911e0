/**
 * Validation of `POST /ingest` bodies (SPEC §4.2, §7, §8). Produces a
 * normalised request or throws MemoryError with the spec's code; nothing is
 * written before this passes.
 */
import { MemoryError } from "../core/errors.ts";
import { parseWith } from "../core/schema.ts";
import type { AssertionKind, EntityInput, RelationInput } from "../core/types.ts";
import { Content, IngestBody, LIMITS, Title } from "./ingest-schema.ts";

export { LIMITS };

/** A validated structured-ingest request. */
export interface IngestRequest {
  title: string;
  content: string;
  domain?: string;
  entities: EntityInput[];
  relations: RelationInput[];
  originContext: "owner" | "channel";
  sourceRef?: string;
  memoryKind?: string;
  lawfulBasis?: string;
  region?: string;
  assertionKind?: AssertionKind;
  expiresAt?: string;
  authority?: number;
}

/**
 * Refuses text holding U+0000. libSQL stores it whole but reads text back cut at the NUL, so a reviewer would approve
 * a shortened text while hidden bytes sit in the row; nothing a client means to store needs it (SPEC §7: 400).
 */
export function refuseNul(v: string, field: "title" | "content"): void {
  if (v.includes("\u0000")) throw new MemoryError("invalid_request", `${field} must not contain U+0000 (NUL)`, { field });
}

/** Validates a title: trimmed, 1–500 bytes (SPEC §4.2; the `Title` schema). */
export function validateTitle(v: unknown): string {
  return parseWith(Title, v);
}

/** Validates content: 1–1,000,000 bytes, not trimmed (SPEC §4.2; the `Content` schema). */
export function validateContent(v: unknown): string {
  return parseWith(Content, v);
}

/** Validates a full `/ingest` body (the `IngestBody` schema) into the request the writer takes. */
export function validateIngest(raw: unknown): IngestRequest {
  const b = parseWith(IngestBody, raw);
  const req: IngestRequest = {
    title: b.title, content: b.content, entities: b.entities ?? [], relations: b.relations ?? [],
    originContext: b.origin_context === "channel" ? "channel" : "owner",
  };
  if (b.domain !== undefined) req.domain = b.domain;
  if (b.source !== undefined) req.sourceRef = b.source;
  if (b.memory_kind !== undefined) req.memoryKind = b.memory_kind;
  if (b.lawful_basis !== undefined) req.lawfulBasis = b.lawful_basis;
  if (b.region !== undefined) req.region = b.region;
  if (b.assertion_kind !== undefined) req.assertionKind = b.assertion_kind;
  if (b.expires_at !== undefined) req.expiresAt = b.expires_at;
  if (b.authority !== undefined) req.authority = b.authority;
  return req;
}
