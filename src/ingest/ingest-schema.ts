/**
 * The structured write's bodies (SPEC §4.2, §7, §8) as schemas that validate and type: `POST /ingest` and its
 * bulk form `POST /ingest/batch`, `POST /ingest/markdown`, and the `/ingest` reply. The HTTP routes, the OpenAPI
 * document, the typed client, the library (`memory.ingest`) and the CLI all use these; the domain parses with them
 * (`validate-ingest.ts`), so every binding answers the same codes (`title_invalid`, `content_empty`,
 * `content_too_large`, `domain_invalid`, `name_invalid`, …).
 */
import { z } from "zod";
import { parseIsoInstant } from "../core/iso-instant.ts";
import { body, byteLength, isAbsent, optionalText, specError, specErrorBy } from "../core/schema.ts";
import { ASSERTION_KINDS } from "../core/types.ts";
import { domainNameField } from "../domains/domain-name.ts";
import { EntitiesField, RelationsField } from "../graph/graph-schema.ts";

/** Limits of SPEC §8. */
export const LIMITS = { titleMax: 500, contentMax: 1_000_000, sourceMax: 64, labelMax: 64 } as const;

const titleBounds = { min: 1, max: LIMITS.titleMax };
const contentBounds = { min: 1, max: LIMITS.contentMax };
const noNul = (field: "title" | "content") => ({
  // libSQL stores U+0000 whole but reads text back cut at it: a reviewer would approve a shortened text (SPEC §7: 400).
  error: specError("invalid_request", `${field} must not contain U+0000 (NUL)`, { field }),
});

/** A title: a string of 1 to 500 bytes after trimming (SPEC §4.2; `title_invalid`); parsed trimmed. */
export const Title = z
  .string({ error: specError("title_invalid", "title must be a string of 1 to 500 bytes", titleBounds) })
  .refine((v) => !v.includes("\u0000"), noNul("title"))
  .refine((v) => {
    const n = byteLength(v.trim());
    return n >= 1 && n <= LIMITS.titleMax;
  }, { error: specError("title_invalid", "title must be 1 to 500 bytes after trimming", titleBounds) })
  .transform((v) => v.trim())
  .meta({ description: "1 to 500 bytes after trimming (title_invalid)", example: "Deploy windows" });

const contentEmpty = specError("content_empty", "content must not be empty", contentBounds);

/** Content: a string of 1 to 1,000,000 bytes, not trimmed (SPEC §4.2; `content_empty`, `content_too_large`). */
export const Content = z
  .string({ error: specErrorBy((iss) => (isAbsent(iss) ? contentEmpty : specError("invalid_request", "content must be a string", { field: "content" }))) })
  .refine((v) => v !== "", { error: contentEmpty, abort: true })
  .refine((v) => v.length <= LIMITS.contentMax && byteLength(v) <= LIMITS.contentMax, {
    error: specError("content_too_large", "content exceeds 1,000,000 bytes", contentBounds), abort: true,
  })
  .refine((v) => !v.includes("\u0000"), noNul("content"))
  .meta({ description: "1 to 1,000,000 bytes, not trimmed (content_empty, content_too_large)", example: "Deploys happen on Tuesday mornings." });

const choice = { "x-cairn-choice": true };
const label = (field: string, extra: Record<string, unknown> = {}) => optionalText(field, LIMITS.labelMax, { maxLength: LIMITS.labelMax, ...choice, ...extra });
const assertionKind = specErrorBy((iss) =>
  typeof iss.input === "string"
    ? specError("invalid_request", "assertion_kind must be stated, observed or inferred", { field: "assertion_kind" })
    : specError("invalid_request", "assertion_kind must be a string", { field: "assertion_kind" })
);
const badAuthority = specError("invalid_request", "authority must be a number from 0 to 1", { field: "authority" });

/** `POST /ingest` (structured): fields in the order the domain checks them, so the first fault answers. */
export const IngestBody = body({
  title: Title,
  content: Content,
  domain: domainNameField("domain").optional().meta({ description: "Forced domain; omitted resolves to global (domain_invalid)" }),
  origin_context: z
    // SPEC §7: 400 with no code given; this project's code is invalid_request.
    .enum(["owner", "channel"], { error: specError("invalid_request", "origin_context must be 'owner' or 'channel'", { field: "origin_context" }) })
    .optional().meta({ description: "Absent means owner; channel stores origin channel-capture" }),
  entities: EntitiesField.optional(),
  relations: RelationsField.optional(),
  assertion_kind: z.enum(ASSERTION_KINDS, { error: assertionKind }).optional().meta(choice),
  authority: z.number({ error: badAuthority }).min(0, { error: badAuthority }).max(1, { error: badAuthority }).optional().meta(choice),
  source: optionalText("source", LIMITS.sourceMax, {
    maxLength: LIMITS.sourceMax, ...choice,
    description: "Provenance source string (MAX_SOURCE); connector or web markers apply the 0.9 unverified-source discount",
  }),
  memory_kind: label("memory_kind"),
  lawful_basis: label("lawful_basis"),
  region: label("region"),
  expires_at: z
    .string({ error: specError("invalid_request", "expires_at must be a string", { field: "expires_at" }) })
    .refine((v) => byteLength(v) <= LIMITS.labelMax, { error: specError("invalid_request", `expires_at must be at most ${LIMITS.labelMax} bytes`, { field: "expires_at", max: LIMITS.labelMax }), abort: true })
    .refine((v) => parseIsoInstant(v) !== undefined, { error: specError("invalid_request", "expires_at must be an ISO-8601 timestamp", { field: "expires_at" }) })
    .meta({ format: "date-time", ...choice }).optional(),
}, { nulls: ["title", "content", "source", "memory_kind", "lawful_basis", "region", "assertion_kind", "expires_at"], meta: { id: "IngestRequest" } });

/** What `POST /ingest` takes (and `memory.ingest`, `cairn.ingest`). */
export type IngestInput = z.input<typeof IngestBody>;

/** Most items one batch may carry. */
export const MAX_BATCH_ITEMS = 1000;
const badItems = specError("invalid_request", "items must be a non-empty array of /ingest bodies", { field: "items" });

/** `POST /ingest/batch` (this project's choice): 1 to 1,000 `/ingest` bodies, all validated before any is written. */
export const IngestBatchBody = body({
  items: z.array(IngestBody, { error: badItems })
    .min(1, { error: badItems })
    .max(MAX_BATCH_ITEMS, { error: specError("invalid_request", `a batch holds at most ${MAX_BATCH_ITEMS} items`, { field: "items", max: MAX_BATCH_ITEMS }) }),
}, { meta: { id: "IngestBatch" } });

/** What `POST /ingest/batch` takes. */
export type IngestBatchInput = z.input<typeof IngestBatchBody>;

/** `POST /ingest/markdown` (SPEC §4.2 `{title, content}`; `domain` and `source` are this project's). */
export const MarkdownBody = body({
  title: Title,
  content: Content,
  domain: domainNameField("domain").optional(),
  source: optionalText("source", LIMITS.sourceMax, { maxLength: LIMITS.sourceMax }),
}, { meta: { id: "MarkdownIngest" } });

/** What `POST /ingest/markdown` takes. */
export type MarkdownInput = z.input<typeof MarkdownBody>;

/** The `/ingest` reply (SPEC §4.2). */
export const IngestReply = z.object({
  id: z.number().int(),
  status: z.enum(["created", "duplicate"]),
  domain: z.string(),
  entitiesAdded: z.number().int(),
  relationsAdded: z.number().int(),
  flagged: z.literal(true).optional().meta({
    description: "Present when the injection screen quarantined the entry (stored flagged, excluded from recall until released)", ...choice,
  }),
}).meta({ id: "IngestResult" });

/** The `/ingest` reply. */
export type IngestResult = z.infer<typeof IngestReply>;
