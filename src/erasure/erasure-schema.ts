/**
 * The erasure bodies (SPEC §1 item 6, §4.4; shapes this project's choice) as schemas that validate and type:
 * `POST /purge` (`{ids}` or `{owner}`, exactly one) and `POST /dsar` (`{owner?, email?, match?, dry_run?}`, at least
 * one subject field). A field that fails answers `invalid_request` naming it.
 */
import { z } from "zod";
import { body, specError } from "../core/schema.ts";

/** At most this many ids per request (the 1 MiB body holds far fewer digits anyway). */
export const MAX_PURGE_IDS = 100_000;
const badIds = specError("invalid_request", `ids must be 1 to ${MAX_PURGE_IDS} positive integers`, { field: "ids" });
const badOwner = specError("invalid_request", "owner must be a non-empty string of at most 256 characters", { field: "owner" });
const present = (v: unknown) => v !== undefined;

/** `POST /purge`. */
export const PurgeBody = body({
  ids: z.array(z.number({ error: badIds }).int({ error: badIds }).min(1, { error: badIds }).max(Number.MAX_SAFE_INTEGER, { error: badIds }), { error: badIds })
    .min(1, { error: badIds }).max(MAX_PURGE_IDS, { error: badIds }).optional()
    .meta({ description: "Chunk ids (with no owner)" }),
  owner: z.string({ error: badOwner }).refine((v) => v.trim() !== "" && v.length <= 256, { error: badOwner }).transform((v) => v.trim()).optional()
    .meta({ maxLength: 256, description: "A chunk's meta.owner (with no ids)" }),
}, {
  before: { ok: (b) => present(b.ids) !== present(b.owner), error: specError("invalid_request", "give exactly one of ids or owner", { field: "ids" }) },
  meta: { id: "PurgeRequest", description: "Exactly one of ids or owner" },
});

/** What `POST /purge` takes. */
export type PurgeInput = z.input<typeof PurgeBody>;

const subjectField = (f: "owner" | "email" | "match", min: number, max: number) => {
  const e = specError("invalid_request", `${f} must be a string of ${min} to ${max} characters`, { field: f, min, max });
  return z.string({ error: e }).refine((v) => v.trim().length >= min && v.length <= max, { error: e }).transform((v) => v.trim());
};

/** `POST /dsar`. */
export const DsarBody = body({
  owner: subjectField("owner", 1, 256).optional().meta({ description: "Chunks whose meta.owner is this" }),
  email: subjectField("email", 3, 320)
    .refine((v) => /^[^\s@]+@[^\s@]+$/.test(v), { error: specError("invalid_request", "email must look like name@host", { field: "email" }) })
    .optional().meta({ description: "Content, titles and entity names containing it (ASCII case-insensitive)" }),
  match: subjectField("match", 3, 1000).optional().meta({ minLength: 3, description: "Content, titles and entity names containing it" }),
  dry_run: z.boolean({ error: specError("invalid_request", "dry_run must be a boolean", { field: "dry_run" }) }).optional()
    .meta({ description: "Locate and export only; nothing erased, no certificate" }),
}, {
  after: {
    ok: (b) => b.owner !== undefined || b.email !== undefined || b.match !== undefined,
    error: specError("invalid_request", "give at least one of owner, email or match", { field: "owner" }),
  },
  nulls: ["owner", "email", "match"],
  meta: { id: "DsarRequest", description: "At least one of owner, email or match" },
});

/** What `POST /dsar` takes. */
export type DsarInput = z.input<typeof DsarBody>;
