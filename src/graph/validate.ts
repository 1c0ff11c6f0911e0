/**
 * Validation of graph input (SPEC §2.6, §7, §8): entity names, entity types,
 * relation types and the per-request array caps. Everything here is pure; it
 * throws `MemoryError` with the spec's codes (`name_invalid`,
 * `entity_invalid`, `relation_invalid`, `too_many_entities`,
 * `too_many_relations`) and `details` naming the offending field and index.
 * Also exports the lenient cleaners the linker uses to turn free text
 * (headings, tags, backticked identifiers) into valid entity names.
 */
import { MemoryError } from "../core/errors.ts";
import { parseIsoInstant } from "../core/iso-instant.ts";

/** Limits of SPEC §8 for graph input. */
export const GRAPH_LIMITS = {
  nameMax: 100,
  entityTypeMax: 64,
  relationTypeMax: 64,
  relationBaseMax: 62,
  itemsMax: 200,
} as const;

// SPEC §2.6: entity names use this charset, relation types this shape.
const NAME_RE = /^[A-Za-z0-9 _-]+$/;
const RELATION_RE = /^(?:([a-z]+):)?([a-z0-9_]+)$/;

/** A validated entity: `name` is the display form (trimmed, single-spaced). */
export interface ValidEntity {
  name: string;
  type?: string;
}

/** A validated relation: endpoint names in display form, window normalised to ISO-8601 UTC. */
export interface ValidRelation {
  from: string;
  to: string;
  type: string;
  valid_at?: string;
  invalid_at?: string;
}

/**
 * Checks an entity name and returns its display form (trimmed, inner
 * whitespace runs collapsed to one space). Throws `name_invalid`.
 */
export function validateEntityName(raw: unknown, field = "name"): string {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > GRAPH_LIMITS.nameMax || !NAME_RE.test(raw)) {
    throw new MemoryError("name_invalid", `${field} must be 1 to 100 characters of letters, digits, space, '_' or '-'`, {
      field, min: 1, max: GRAPH_LIMITS.nameMax,
    });
  }
  const display = raw.trim().replace(/\s+/g, " ");
  if (display.length === 0) throw new MemoryError("name_invalid", `${field} must not be blank`, { field, min: 1, max: GRAPH_LIMITS.nameMax });
  return display;
}

/** The internal key of an entity name (SPEC §2.6: case-insensitive, lowercased internally). Throws `name_invalid`. */
export function normalizeEntityName(raw: unknown, field = "name"): string {
  return validateEntityName(raw, field).toLowerCase();
}

/** Checks an optional entity type (at most 64 characters). Throws `entity_invalid`. */
export function validateEntityType(raw: unknown, field = "type"): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== "string" || raw.length > GRAPH_LIMITS.entityTypeMax) {
    throw new MemoryError("entity_invalid", `${field} must be a string of at most 64 characters`, { field, max: GRAPH_LIMITS.entityTypeMax });
  }
  return raw;
}

/** True when `type` matches the relation-type rule of SPEC §2.6 (pattern, base 1–62, total ≤ 64). */
export function isRelationType(type: string): boolean {
  if (type.length > GRAPH_LIMITS.relationTypeMax) return false;
  const m = RELATION_RE.exec(type);
  return m !== null && m[2].length >= 1 && m[2].length <= GRAPH_LIMITS.relationBaseMax;
}

/** Checks a relation type (SPEC §2.6). Throws `relation_invalid`. */
export function validateRelationType(raw: unknown, field = "type"): string {
  if (typeof raw !== "string" || raw.length === 0 || !isRelationType(raw)) {
    throw new MemoryError("relation_invalid", `${field} must match ^([a-z]+:)?[a-z0-9_]+$ with a base of 1 to 62 and at most 64 in all`, {
      field, pattern: RELATION_RE.source, max: GRAPH_LIMITS.relationTypeMax,
    });
  }
  return raw;
}

/**
 * Lenient relation-type normaliser for hand-written annotations: lowercases,
 * turns spaces and hyphens into `_`, keeps one `ns:` prefix. Returns null when
 * the result still breaks the rule.
 */
export function normalizeRelationType(raw: string): string | null {
  const t = raw.trim().toLowerCase().replace(/[\s-]+/g, "_");
  return isRelationType(t) ? t : null;
}

// Letters and digits of every script are kept (issue 22 item 3: "Zürich", "東京" are names, not "Z rich").
const OUTSIDE = /[^\p{L}\p{M}\p{N} _-]+/gu;
const clean = (raw: string) => raw.normalize("NFC").replace(/['’.]/g, "").replace(OUTSIDE, " ").trim().replace(/\s+/g, " ");

/**
 * Lenient entity-name cleaner for free text: drops `'` `’` and `.` inside
 * words ("Node.js" → "Nodejs"), turns every character that is not a letter
 * or digit (of any script), space, `_` or `-` into a space, collapses
 * spaces. Returns null when nothing is left or the result exceeds 100
 * characters (callers that must keep long text, like titles, use
 * `truncateEntityName`).
 */
export function cleanEntityName(raw: string): string | null {
  const s = clean(raw);
  if (s.length === 0 || s.length > GRAPH_LIMITS.nameMax) return null;
  return s;
}

/**
 * The keys a graph *read* looks a name up by (issue 22 item 3): the SPEC
 * §2.6 pattern governs input entities, but a read must find any name ingest
 * stored, so it takes the name as given (lowercased) and as ingest would
 * have cleaned it ("Node.js" → "nodejs"). Throws `name_invalid` only for a
 * blank name, one over 100 characters, or control characters.
 */
export function entityReadKeys(raw: unknown, field = "name"): string[] {
  const given = typeof raw === "string" ? raw.normalize("NFC").trim().replace(/\s+/g, " ") : "";
  // deno-lint-ignore no-control-regex
  if (given.length === 0 || given.length > GRAPH_LIMITS.nameMax || /[\u0000-\u001f\u007f]/.test(given)) {
    throw new MemoryError("name_invalid", `${field} must be 1 to 100 characters`, { field, min: 1, max: GRAPH_LIMITS.nameMax });
  }
  const keys = [given.toLowerCase()];
  const cleaned = cleanEntityName(given)?.toLowerCase();
  if (cleaned !== undefined && cleaned !== keys[0]) keys.push(cleaned);
  return keys;
}

/** Like `cleanEntityName`, but cuts text over 100 characters at the last space that fits. */
export function truncateEntityName(raw: string): string | null {
  const s = clean(raw);
  if (s.length <= GRAPH_LIMITS.nameMax) return s.length === 0 ? null : s;
  const cut = s.slice(0, GRAPH_LIMITS.nameMax + 1);
  const sp = cut.lastIndexOf(" ");
  const out = (sp > 0 ? cut.slice(0, sp) : cut.slice(0, GRAPH_LIMITS.nameMax)).trim();
  return out.length === 0 ? null : out;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function optionalInstant(raw: unknown, field: string): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  const ms = parseIsoInstant(raw);
  if (ms === undefined) throw new MemoryError("relation_invalid", `${field} must be an ISO-8601 timestamp`, { field });
  return new Date(ms).toISOString();
}

function validateEntity(raw: unknown, i: number): ValidEntity {
  if (!isRecord(raw)) throw new MemoryError("name_invalid", `entities[${i}] must be an object with a name`, { field: `entities[${i}].name`, index: i });
  const e: ValidEntity = { name: validateEntityName(raw.name, `entities[${i}].name`) };
  const type = validateEntityType(raw.type, `entities[${i}].type`);
  if (type !== undefined) e.type = type;
  return e;
}

function validateRelation(raw: unknown, i: number): ValidRelation {
  const at = `relations[${i}]`;
  if (!isRecord(raw)) throw new MemoryError("relation_invalid", `${at} must be an object with from, to and type`, { field: at, index: i });
  const r: ValidRelation = {
    from: validateEntityName(raw.from, `${at}.from`),
    to: validateEntityName(raw.to, `${at}.to`),
    type: validateRelationType(raw.type, `${at}.type`),
  };
  const va = optionalInstant(raw.valid_at, `${at}.valid_at`);
  const ia = optionalInstant(raw.invalid_at, `${at}.invalid_at`);
  // An empty or inverted valid window can never hold; refuse it rather than store a dead edge.
  if (va !== undefined && ia !== undefined && Date.parse(ia) <= Date.parse(va)) {
    throw new MemoryError("relation_invalid", `${at}.invalid_at must be later than valid_at`, { field: `${at}.invalid_at`, index: i });
  }
  if (va !== undefined) r.valid_at = va;
  if (ia !== undefined) r.invalid_at = ia;
  return r;
}

function withIndex<T>(fn: () => T, index: number): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof MemoryError && e.details && e.details.index === undefined) (e.details as Record<string, unknown>).index = index;
    throw e;
  }
}

/**
 * Validates the `entities[]` and `relations[]` of a structured ingest
 * (SPEC §4.2): caps first (200 each), then every item in order. Returns the
 * display-form items; use `normalizeEntityName` for store keys.
 */
export function validateGraphInput(entities: readonly unknown[], relations: readonly unknown[]): {
  entities: ValidEntity[];
  relations: ValidRelation[];
} {
  if (entities.length > GRAPH_LIMITS.itemsMax) {
    throw new MemoryError("too_many_entities", "At most 200 entities per request", { field: "entities", max: GRAPH_LIMITS.itemsMax, got: entities.length });
  }
  if (relations.length > GRAPH_LIMITS.itemsMax) {
    throw new MemoryError("too_many_relations", "At most 200 relations per request", { field: "relations", max: GRAPH_LIMITS.itemsMax, got: relations.length });
  }
  return {
    entities: entities.map((e, i) => withIndex(() => validateEntity(e, i), i)),
    relations: relations.map((r, i) => withIndex(() => validateRelation(r, i), i)),
  };
}

/**
 * Endpoint names (normalised) that relations use but `entities[]` does not
 * list; the store must find them already in the domain (SPEC §4.2), in first-use order.
 */
export function unlistedEndpoints(input: { entities: readonly ValidEntity[]; relations: readonly ValidRelation[] }): string[] {
  const listed = new Set(input.entities.map((e) => e.name.toLowerCase()));
  const out: string[] = [];
  for (const r of input.relations) {
    for (const n of [r.from.toLowerCase(), r.to.toLowerCase()]) {
      if (!listed.has(n) && !out.includes(n)) out.push(n);
    }
  }
  return out;
}
