/**
 * Validation of `POST /ingest` bodies (SPEC §4.2, §7, §8). Produces a
 * normalised request or throws MemoryError with the spec's code; nothing is
 * written before this passes.
 */
import { MemoryError } from "../core/errors.ts";
import { parseIsoInstant } from "../core/iso-instant.ts";
import { ASSERTION_KINDS, type AssertionKind, type EntityInput, type RelationInput } from "../core/types.ts";
import { normalizeDomainName } from "../domains/domain-name.ts";
import { validateGraphInput } from "../graph/validate.ts";
import { optionalString, requireObject } from "./fields.ts";

/** Limits of SPEC §8. */
export const LIMITS = { titleMax: 500, contentMax: 1_000_000, sourceMax: 64, labelMax: 64 } as const;

const enc = new TextEncoder();
const byteLen = (s: string) => enc.encode(s).length;

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

/** Validates a title: trimmed, 1–500 bytes (SPEC §4.2). */
export function validateTitle(v: unknown): string {
  if (typeof v !== "string") throw new MemoryError("title_invalid", "title must be a string of 1 to 500 bytes", { min: 1, max: 500 });
  refuseNul(v, "title");
  const t = v.trim();
  const n = byteLen(t);
  if (n < 1 || n > LIMITS.titleMax) throw new MemoryError("title_invalid", "title must be 1 to 500 bytes after trimming", { min: 1, max: 500 });
  return t;
}

/** Validates content: 1–1,000,000 bytes, not trimmed (SPEC §4.2). */
export function validateContent(v: unknown): string {
  if (v === undefined || v === null || v === "") throw new MemoryError("content_empty", "content must not be empty", { min: 1, max: LIMITS.contentMax });
  if (typeof v !== "string") throw new MemoryError("invalid_request", "content must be a string", { field: "content" });
  if (byteLen(v) > LIMITS.contentMax) {
    throw new MemoryError("content_too_large", "content exceeds 1,000,000 bytes", { min: 1, max: LIMITS.contentMax });
  }
  refuseNul(v, "content");
  return v;
}

/** Validates an optional timestamp field (ISO-8601). */
function optionalTimestamp(body: Record<string, unknown>, field: string): string | undefined {
  const v = optionalString(body, field, 64);
  if (v === undefined) return undefined;
  if (parseIsoInstant(v) === undefined) throw new MemoryError("invalid_request", `${field} must be an ISO-8601 timestamp`, { field });
  return v;
}

/** Validates a full `/ingest` body. */
export function validateIngest(raw: unknown): IngestRequest {
  const body = requireObject(raw);
  const title = validateTitle(body.title);
  const content = validateContent(body.content);
  let domain: string | undefined;
  if (body.domain !== undefined) domain = normalizeDomainName(body.domain);
  const oc = body.origin_context;
  if (oc !== undefined && oc !== "owner" && oc !== "channel") {
    // SPEC §7: 400 with no code given; this project's code is invalid_request.
    throw new MemoryError("invalid_request", "origin_context must be 'owner' or 'channel'", { field: "origin_context" });
  }
  for (const f of ["entities", "relations"] as const) {
    if (body[f] !== undefined && !Array.isArray(body[f])) throw new MemoryError("invalid_request", `${f} must be an array`, { field: f });
  }
  const { entities, relations } = validateGraphInput(
    (body.entities as unknown[] | undefined) ?? [],
    (body.relations as unknown[] | undefined) ?? [],
  );
  const ak = optionalString(body, "assertion_kind", LIMITS.labelMax);
  if (ak !== undefined && !(ASSERTION_KINDS as readonly string[]).includes(ak)) {
    throw new MemoryError("invalid_request", "assertion_kind must be stated, observed or inferred", { field: "assertion_kind" });
  }
  let authority: number | undefined;
  if (body.authority !== undefined) {
    if (typeof body.authority !== "number" || !(body.authority >= 0 && body.authority <= 1)) {
      throw new MemoryError("invalid_request", "authority must be a number from 0 to 1", { field: "authority" });
    }
    authority = body.authority;
  }
  const req: IngestRequest = { title, content, entities, relations, originContext: oc === "channel" ? "channel" : "owner" };
  if (domain !== undefined) req.domain = domain;
  const extra: [keyof IngestRequest, string | undefined][] = [
    ["sourceRef", optionalString(body, "source", LIMITS.sourceMax)],
    ["memoryKind", optionalString(body, "memory_kind", LIMITS.labelMax)],
    ["lawfulBasis", optionalString(body, "lawful_basis", LIMITS.labelMax)],
    ["region", optionalString(body, "region", LIMITS.labelMax)],
    ["assertionKind", ak],
    ["expiresAt", optionalTimestamp(body, "expires_at")],
  ];
  for (const [k, v] of extra) if (v !== undefined) (req as unknown as Record<string, unknown>)[k] = v;
  if (authority !== undefined) req.authority = authority;
  return req;
}
