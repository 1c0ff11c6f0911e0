/**
 * Validation and normalisation of partial UMP records on write (SPEC §2.8,
 * §4.9; UMP notes "Record"). `normaliseRecord` turns what a client sends to
 * `POST /ump/remember` (or what an import file holds) into a full 1.0 record:
 * `ump` "0.1" becomes "1.0" and any other major version is refused, defaults
 * are filled from the options (`now`, the writer as owner and actor), and every
 * problem is reported at once in `MemoryError("invalid_record")` details.
 * It does not assign `id` or `integrity`; see `content-hash.ts` and `sign.ts`.
 */

import { MemoryError } from "../core/errors.ts";
import { requireCleanText } from "../core/text-rule.ts";
import { canonicalize } from "./canonical-json.ts";
import { parseIsoDuration } from "./iso-duration.ts";
import { parseRedactPath } from "./redact.ts";
import type { ActorKind, UmpKind, UmpRecord } from "./types.ts";

/** The UMP version Cairn stores and emits. */
export const UMP_VERSION = "1.0";
/** The five kinds (SPEC §2.8). */
export const KINDS: readonly UmpKind[] = ["semantic", "episodic", "procedural", "working", "identity"];
const VISIBILITIES = ["private", "shared", "public"];
const STATUSES = ["active", "candidate", "tombstoned"];
const ACTOR_KINDS: readonly ActorKind[] = ["user", "agent", "model", "import", "scan"];
const ID = /^urn:ump:[a-z2-7]+$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}(?:[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[Zz]|[+-]\d{2}:?\d{2})?)?$/;
const MAX_TEXT_BYTES = 1_000_000; // SPEC §8 content limit
const MAX_TITLE_BYTES = 500; // SPEC §8 title limit

/** Defaults applied by `normaliseRecord`. */
export interface NormaliseOptions {
  /** Clock for `time.*` defaults. */
  now: Date;
  /** The authenticated writer's DID: `scope.owner` when the record names none (SPEC §4.9). */
  owner?: string;
  /** Default `provenance.actor` (falls back to the owner). */
  actor?: string;
  /** Default `provenance.actor_kind`; `agent` when not given. */
  actorKind?: ActorKind;
  /** Default `provenance.method`; `remember` when not given. */
  method?: string;
}

/** Validates and completes a partial record; throws `MemoryError("invalid_record", …, {problems})`. */
export function normaliseRecord(input: unknown, opts: NormaliseOptions): UmpRecord {
  const problems: string[] = [];
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw invalid(["record: must be a JSON object"]);
  }
  // The text-field rule (src/core/text-rule.ts) at every UMP door: remember, revise, import, MCP, files.
  requireCleanText(input);
  try {
    canonicalize(input);
  } catch (e) {
    throw invalid([`record: ${(e as Error).message}`]);
  }
  const r = JSON.parse(JSON.stringify(input)) as Record<string, unknown>;
  const nowIso = opts.now.toISOString();

  r.ump = normaliseVersion(r.ump, problems);
  if (r.id !== undefined && !(typeof r.id === "string" && ID.test(r.id))) problems.push("id: must be urn:ump:<lowercase base32>");
  if (!KINDS.includes(r.kind as UmpKind)) problems.push(`kind: must be one of ${KINDS.join(", ")}`);
  if (r.title !== undefined && !isSizedString(r.title, MAX_TITLE_BYTES)) problems.push("title: must be a string of 1 to 500 bytes");

  const body = objectAt(r, "body", problems, false);
  if (!body) problems.push("body: must be an object carrying text");
  else if (!isSizedString(body.text, MAX_TEXT_BYTES)) problems.push("body.text: required, a string of 1 to 1,000,000 bytes");

  const scope = objectAt(r, "scope", problems, true)!;
  scope.owner ??= opts.owner;
  if (typeof scope.owner !== "string" || scope.owner === "") problems.push("scope.owner: required (a DID)");
  for (const key of ["user", "project", "agent", "session"]) optionalString(scope, key, "scope", problems);
  scope.visibility ??= "private";
  if (!VISIBILITIES.includes(scope.visibility as string)) problems.push(`scope.visibility: must be one of ${VISIBILITIES.join(", ")}`);

  const time = objectAt(r, "time", problems, true)!;
  time.created ??= nowIso;
  time.observed ??= time.created;
  time.valid_from ??= time.observed;
  if (time.valid_to === undefined) time.valid_to = null;
  for (const key of ["created", "observed", "valid_from"]) checkTimestamp(time[key], `time.${key}`, problems);
  if (time.valid_to !== null) checkTimestamp(time.valid_to, "time.valid_to", problems);
  if (typeof time.valid_to === "string" && Date.parse(time.valid_to) < Date.parse(String(time.valid_from))) {
    problems.push("time.valid_to: must not be before time.valid_from");
  }

  const lifecycle = objectAt(r, "lifecycle", problems, true)!;
  lifecycle.status ??= "active";
  if (!STATUSES.includes(lifecycle.status as string)) problems.push(`lifecycle.status: must be one of ${STATUSES.join(", ")}`);
  for (const key of ["confidence", "salience"]) {
    const n = lifecycle[key];
    if (n !== undefined && !(typeof n === "number" && n >= 0 && n <= 1)) problems.push(`lifecycle.${key}: must be a number in [0, 1]`);
  }
  optionalString(lifecycle, "decay", "lifecycle", problems);

  for (const key of ["supersedes", "superseded_by"]) {
    const list = r[key];
    if (list !== undefined && !(Array.isArray(list) && list.every((id) => typeof id === "string" && ID.test(id)))) {
      problems.push(`${key}: must be a list of urn:ump ids`);
    }
  }
  checkRelations(r.relations, problems);
  r.provenance = provenanceOf(r, opts, problems);
  checkConsent(r.consent, problems);
  checkIntegrity(r.integrity, problems);

  if (problems.length > 0) throw invalid(problems);
  // Conventional member order for readable output; the hash (JCS) does not depend on it.
  const { ump, id, kind, title, body: b, scope: s, time: t, lifecycle: l, ...rest } = r;
  return { ump, ...(id !== undefined ? { id } : {}), kind, ...(title !== undefined ? { title } : {}), body: b, scope: s, time: t, lifecycle: l, ...rest } as UmpRecord;
}

function invalid(problems: string[]): MemoryError {
  return new MemoryError("invalid_record", `Invalid record: ${problems[0]}`, { problems });
}

// UMP notes: reject an unknown major version; "0.1" imports are normalised to "1.0".
function normaliseVersion(value: unknown, problems: string[]): unknown {
  if (value === undefined || value === "0.1") return UMP_VERSION;
  if (typeof value === "string" && /^1\.\d+$/.test(value)) return value;
  problems.push(`ump: unsupported version ${JSON.stringify(value)}, expected "${UMP_VERSION}"`);
  return value;
}

function objectAt(r: Record<string, unknown>, key: string, problems: string[], create: boolean): Record<string, unknown> | null {
  const value = r[key];
  if (value === undefined && create) return (r[key] = {}) as Record<string, unknown>;
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  if (value !== undefined && create) problems.push(`${key}: must be an object`);
  return create ? {} : null;
}

function isSizedString(value: unknown, maxBytes: number): boolean {
  return typeof value === "string" && value.length > 0 && new TextEncoder().encode(value).length <= maxBytes;
}

function optionalString(obj: Record<string, unknown>, key: string, prefix: string, problems: string[]): void {
  if (obj[key] !== undefined && typeof obj[key] !== "string") problems.push(`${prefix}.${key}: must be a string`);
}

function checkTimestamp(value: unknown, name: string, problems: string[]): void {
  if (typeof value !== "string" || !TIMESTAMP.test(value) || !Number.isFinite(Date.parse(value.replace(" ", "T")))) {
    problems.push(`${name}: must be an ISO 8601 timestamp`);
  }
}

function checkRelations(value: unknown, problems: string[]): void {
  if (value === undefined) return;
  const ok = Array.isArray(value) && value.every((rel) =>
    typeof rel === "object" && rel !== null &&
    typeof rel.type === "string" && rel.type.length > 0 && rel.type.length <= 64 &&
    typeof rel.target === "string" && (ID.test(rel.target) || /^entity:.+/s.test(rel.target))
  );
  if (!ok) problems.push("relations: must be a list of {type, target} with target urn:ump:… or entity:<name>");
}

function provenanceOf(r: Record<string, unknown>, opts: NormaliseOptions, problems: string[]): unknown {
  const p = objectAt(r, "provenance", problems, true)!;
  p.actor ??= opts.actor ?? opts.owner ?? (r.scope as Record<string, unknown> | undefined)?.owner;
  p.actor_kind ??= opts.actorKind ?? "agent";
  p.method ??= opts.method ?? "remember";
  if (typeof p.actor !== "string" || p.actor === "") problems.push("provenance.actor: required");
  if (!ACTOR_KINDS.includes(p.actor_kind as ActorKind)) problems.push(`provenance.actor_kind: must be one of ${ACTOR_KINDS.join(", ")}`);
  if (typeof p.method !== "string" || p.method === "") problems.push("provenance.method: must be a non-empty string");
  const source = p.source as Record<string, unknown> | undefined;
  if (source !== undefined && !(typeof source === "object" && source !== null && typeof source.ref === "string" &&
    (source.provider === undefined || typeof source.provider === "string"))) {
    problems.push("provenance.source: must be {ref, provider?}");
  }
  const evidence = p.evidence;
  if (evidence !== undefined && !(Array.isArray(evidence) && evidence.every((e) =>
    typeof e === "object" && e !== null && typeof e.ref === "string" && typeof e.weight === "number"))) {
    problems.push("provenance.evidence: must be a list of {ref, weight}");
  }
  return p;
}

function checkConsent(value: unknown, problems: string[]): void {
  if (value === undefined) return;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return void problems.push("consent: must be an object");
  const c = value as Record<string, unknown>;
  if (c.retention !== undefined && parseIsoDuration(c.retention as string) === null) {
    problems.push("consent.retention: must be an ISO 8601 duration such as P365D");
  }
  if (c.exportable !== undefined && typeof c.exportable !== "boolean") problems.push("consent.exportable: must be a boolean");
  if (c.redact !== undefined && !(Array.isArray(c.redact) && c.redact.every((p) => parseRedactPath(p) !== null))) {
    problems.push("consent.redact: must be a list of JSON paths such as body.structured.token");
  }
}

function checkIntegrity(value: unknown, problems: string[]): void {
  if (value === undefined) return;
  const i = value as Record<string, unknown>;
  const ok = typeof value === "object" && value !== null && typeof i.content_hash === "string" && /^blake3:[a-z2-7]+$/.test(i.content_hash) &&
    (i.signature === undefined || typeof i.signature === "string") && (i.signer === undefined || typeof i.signer === "string");
  if (!ok) problems.push("integrity: must be {content_hash: blake3:<base32>, signature?, signer?}");
}
