/**
 * The consolidation bodies (SPEC §4.4; shapes this project's choice) as schemas that validate and type:
 * `POST /consolidate/propose`, `POST /consolidate`, `POST /consolidate/undo`. Each body may be empty (`{}`); a field
 * that fails answers `invalid_request` naming it (`domain_invalid` for a domain).
 */
import { z } from "zod";
import { body, specError } from "../core/schema.ts";
import { domainNameField } from "../domains/domain-name.ts";

const positiveId = (field: string) => {
  const e = specError("invalid_request", `${field} must be a positive integer`, { field });
  return z.number({ error: e }).int({ error: e }).min(1, { error: e }).max(Number.MAX_SAFE_INTEGER, { error: e });
};
const badThreshold = specError("invalid_request", "threshold must be a number in (0, 1]", { field: "threshold" });

/** `POST /consolidate/propose`. */
export const ConsolidateProposeBody = body({
  domain: domainNameField("domain").optional().meta({ description: "Only this domain's chunks and edges" }),
  threshold: z.number({ error: badThreshold }).gt(0, { error: badThreshold }).max(1, { error: badThreshold }).optional()
    .meta({ description: "Term-vector cosine for supersedes, in (0, 1]; 0.9 when absent" }),
}, { nulls: "keep", meta: { id: "ConsolidateProposeRequest" } });

/** What `POST /consolidate/propose` takes. */
export type ConsolidateProposeInput = z.input<typeof ConsolidateProposeBody>;

/** `POST /consolidate`: `{id}` approves a proposed link; `{from, to, kind?}` files and approves one. */
export const ConsolidateBody = body({
  kind: z.enum(["supersedes", "contradicts"], { error: specError("invalid_request", "kind must be supersedes or contradicts", { field: "kind" }) })
    .optional().meta({ description: "With from and to; supersedes when absent" }),
  id: positiveId("id").optional().meta({ description: "A proposed link to approve" }),
  from: positiveId("from").optional().meta({ description: "The newer chunk (with to)" }),
  to: positiveId("to").optional().meta({ description: "The older chunk (with from)" }),
}, { nulls: ["id", "from", "to"], meta: { id: "ConsolidateRequest" } });

/** What `POST /consolidate` takes. */
export type ConsolidateInput = z.input<typeof ConsolidateBody>;

/** `POST /consolidate/undo`. */
export const ConsolidateUndoBody = body({
  id: z.number({ error: (iss) => specError("invalid_request", iss.input === undefined ? "id is required" : "id must be a positive integer", { field: "id" })(iss) })
    .int({ error: specError("invalid_request", "id must be a positive integer", { field: "id" }) })
    .min(1, { error: specError("invalid_request", "id must be a positive integer", { field: "id" }) })
    .max(Number.MAX_SAFE_INTEGER, { error: specError("invalid_request", "id must be a positive integer", { field: "id" }) }),
}, { meta: { id: "ConsolidateUndoRequest" } });

/** What `POST /consolidate/undo` takes. */
export type ConsolidateUndoInput = z.input<typeof ConsolidateUndoBody>;
