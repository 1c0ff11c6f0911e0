/**
 * The `entities[]` and `relations[]` items of a structured ingest (SPEC §2.6, §4.2, §7, §8) as schemas that
 * validate and type: the rules of `validate.ts` (names, entity types, relation types, valid windows, 200 per
 * request) with their codes (`name_invalid`, `entity_invalid`, `relation_invalid`, `too_many_entities`,
 * `too_many_relations`), `details.field` naming the item (`entities[3].name`) and `details.index` its position.
 * Parsed items are in display form (names trimmed, single-spaced; windows as ISO-8601 UTC).
 */
import { z } from "zod";
import { parseIsoInstant } from "../core/iso-instant.ts";
import { body, specError } from "../core/schema.ts";
import { GRAPH_LIMITS, isRelationType } from "./validate.ts";

// SPEC §2.6: entity names use this charset.
const NAME_RE = /^[A-Za-z0-9 _-]+$/;
const NAME_RULE = "must be 1 to 100 characters of letters, digits, space, '_' or '-'";
const nameBounds = { field: "{at}", min: 1, max: GRAPH_LIMITS.nameMax };

/** An entity (or relation endpoint) name: `name_invalid` (SPEC §7); parsed to its display form. */
export const EntityName = z
  .string({ error: specError("name_invalid", `{at} ${NAME_RULE}`, nameBounds) })
  .refine((s) => s.length >= 1 && s.length <= GRAPH_LIMITS.nameMax && NAME_RE.test(s), { error: specError("name_invalid", `{at} ${NAME_RULE}`, nameBounds), abort: true })
  .transform((s) => s.trim().replace(/\s+/g, " "))
  .refine((s) => s.length > 0, { error: specError("name_invalid", "{at} must not be blank", nameBounds) })
  .meta({ minLength: 1, maxLength: GRAPH_LIMITS.nameMax, pattern: NAME_RE.source, description: "name_invalid otherwise (SPEC §2.6)" });

const instant = z
  .string({ error: specError("relation_invalid", "{at} must be an ISO-8601 timestamp", { field: "{at}" }) })
  .refine((s) => parseIsoInstant(s) !== undefined, { error: specError("relation_invalid", "{at} must be an ISO-8601 timestamp", { field: "{at}" }), abort: true })
  .transform((s) => new Date(parseIsoInstant(s)!).toISOString())
  .meta({ format: "date-time" });

/** One `entities[]` item. */
export const EntityInputSchema = body({
  name: EntityName,
  type: z
    .string({ error: specError("entity_invalid", "{at} must be a string of at most 64 characters", { field: "{at}", max: GRAPH_LIMITS.entityTypeMax }) })
    .max(GRAPH_LIMITS.entityTypeMax, { error: specError("entity_invalid", "{at} must be a string of at most 64 characters", { field: "{at}", max: GRAPH_LIMITS.entityTypeMax }) })
    .optional(),
}, { error: specError("name_invalid", "{at} must be an object with a name", { field: "{at}.name" }), meta: { id: "Entity" } });

const relationType = specError("relation_invalid", "{at} must match ^([a-z]+:)?[a-z0-9_]+$ with a base of 1 to 62 and at most 64 in all", {
  field: "{at}", pattern: "^(?:([a-z]+):)?([a-z0-9_]+)$", max: GRAPH_LIMITS.relationTypeMax,
});

/** One `relations[]` item: both endpoints, a relation type, an optional valid window (which must not be empty). */
export const RelationInputSchema = body({
  from: EntityName,
  to: EntityName,
  type: z.string({ error: relationType }).refine(isRelationType, { error: relationType })
    .meta({ pattern: "^([a-z]+:)?[a-z0-9_]+$", maxLength: GRAPH_LIMITS.relationTypeMax, description: "relation_invalid otherwise" }),
  valid_at: instant.optional(),
  invalid_at: instant.optional(),
}, { error: specError("relation_invalid", "{at} must be an object with from, to and type", { field: "{at}" }) });

// An empty or inverted valid window can never hold; refuse it rather than store a dead edge.
const windowed = RelationInputSchema.refine(
  (r) => r.valid_at === undefined || r.invalid_at === undefined || Date.parse(r.invalid_at) > Date.parse(r.valid_at),
  { error: specError("relation_invalid", "{at}.invalid_at must be later than valid_at", { field: "{at}.invalid_at" }) },
).meta({ id: "Relation" });

const cap = (field: "entities" | "relations", code: string, what: string) =>
  specError(code, `At most 200 ${what} per request`, (iss) => ({ field, max: GRAPH_LIMITS.itemsMax, got: Array.isArray(iss.input) ? iss.input.length : undefined }));
const notArray = (field: string) => specError("invalid_request", `${field} must be an array`, { field });

/** `entities[]`: at most 200 (`too_many_entities`). */
export const EntitiesField = z
  .array(EntityInputSchema, { error: notArray("entities") })
  .max(GRAPH_LIMITS.itemsMax, { error: cap("entities", "too_many_entities", "entities") });

/** `relations[]`: at most 200 (`too_many_relations`); endpoints must be listed or already in the domain (checked at write). */
export const RelationsField = z
  .array(windowed, { error: notArray("relations") })
  .max(GRAPH_LIMITS.itemsMax, { error: cap("relations", "too_many_relations", "relations") });
