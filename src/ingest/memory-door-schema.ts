/**
 * The raw memory doors' bodies (SPEC §1 Input hygiene, §4.2; shapes this project's choice) as schemas that validate
 * and type: one entry `{content, title?, domain?, origin?}` (`POST /add`, `POST /ingest/memory`) or a batch
 * `{entries: [string | entry], domain?, origin?}`. A batch is checked as an envelope, then entry by entry, so one
 * bad entry is that entry's `rejected` result and never aborts the rest. Content is checked for emptiness and size
 * after the reasoning strip (an entry left empty is `skipped`), so here it only has to be a string without NUL.
 */
import { z } from "zod";
import { body, isAbsent, specError, specErrorBy } from "../core/schema.ts";
import type { Origin } from "../core/types.ts";
import { domainNameField } from "../domains/domain-name.ts";
import { Title } from "./ingest-schema.ts";

const ORIGINS = ["human", "model", "agent", "operator"] as const satisfies readonly Origin[];
const origin = z.enum(ORIGINS, { error: specError("invalid_request", "origin must be human, model, agent or operator", { field: "origin" }) })
  .meta({ description: "Default agent" });
const contentEmpty = specError("content_empty", "content must not be empty", { min: 1, max: 1_000_000 });

/** One raw entry's content: a string without U+0000 (emptiness and size are checked after the strip). */
export const EntryContent = z
  .string({ error: specErrorBy((iss) => (isAbsent(iss) ? contentEmpty : specError("invalid_request", "content must be a string", { field: "content" }))) })
  .refine((v) => !v.includes("\u0000"), { error: specError("invalid_request", "content must not contain U+0000 (NUL)", { field: "content" }) })
  .meta({ description: "1 to 1,000,000 bytes after the reasoning strip" });

/** One raw entry. */
export const MemoryEntry = body({
  content: EntryContent,
  title: Title.optional(),
  domain: domainNameField("domain").optional(),
  origin: origin.optional(),
}, {
  error: specError("invalid_request", "an entry must be a string or an object with content", { field: "entries" }),
  nulls: ["content", "domain"],
  meta: { id: "MemoryEntry" },
});

/** One raw entry, as a client writes it. */
export type MemoryEntryInput = z.input<typeof MemoryEntry>;

const badEntries = specError("invalid_request", "entries must hold 1 to 1000 items", { field: "entries", min: 1, max: 1000 });

/** A batch envelope: its entries are checked one by one afterwards (`MemoryEntry`, or a bare string). */
export const MemoryBatchEnvelope = body({
  entries: z.array(z.unknown(), { error: specError("invalid_request", "entries must be an array", { field: "entries" }) })
    .min(1, { error: badEntries }).max(1000, { error: badEntries }),
  domain: domainNameField("domain").optional().meta({ description: "Default domain of the entries" }),
  origin: origin.optional(),
}, { nulls: "keep" });

/** `POST /ingest/memory` as documented and typed: one entry, or a batch of entries (strings or entry objects). */
export const MemoryDoorBody = z.union([
  MemoryEntry,
  z.object({
    entries: z.array(z.union([z.string(), MemoryEntry])).min(1).max(1000),
    domain: domainNameField("domain").optional(),
    origin: origin.optional(),
  }).meta({ id: "MemoryBatch" }),
]);

/** What `POST /ingest/memory` takes. */
export type MemoryDoorInput = z.input<typeof MemoryDoorBody>;
