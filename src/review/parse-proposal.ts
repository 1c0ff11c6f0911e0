/**
 * `POST /ingest/proposal` bodies (SPEC §4.2: body `{content}`) as a schema that validates and types. Optional fields
 * are this project's: `title`, `domain`, `kind` (`memory` | `capture`), `origin`, `owner`, `source` (SPEC §8
 * MAX_SOURCE 64 bytes) and `source_prompt` (MAX_SOURCE_PROMPT 2048 bytes). Codes as `/ingest` (`content_empty`,
 * `title_invalid`, `domain_invalid`); other fields `invalid_request`.
 */
import { z } from "zod";
import { body, byteLength, optionalText, parseWith, specError, specErrorBy } from "../core/schema.ts";
import type { Origin } from "../core/types.ts";
import { domainNameField } from "../domains/domain-name.ts";
import { Content, Title } from "../ingest/ingest-schema.ts";
import type { ProposalInput } from "./file-proposal.ts";

const ORIGINS = ["human", "model", "agent", "operator", "imported", "channel"] as const satisfies readonly Origin[];

/** SPEC §8 write-seam limits. */
export const PROPOSAL_LIMITS = { sourceMax: 64, sourcePromptMax: 2048, ownerMax: 256 } as const;

/** A string field that must be one of `values` (16 bytes at most, as the free-form check before it). */
function oneOf<const V extends readonly [string, ...string[]]>(field: string, values: V, rule: string) {
  return z.enum(values, {
    error: specErrorBy((iss) =>
      typeof iss.input !== "string"
        ? specError("invalid_request", `${field} must be a string`, { field })
        : byteLength(iss.input) > 16
        ? specError("invalid_request", `${field} must be at most 16 bytes`, { field, max: 16 })
        : specError("invalid_request", `${field} must be ${rule}`, { field })
    ),
  }).optional();
}

/** `POST /ingest/proposal`. */
export const ProposalBody = body({
  content: Content,
  title: Title.optional(),
  domain: domainNameField("domain").optional(),
  kind: oneOf("kind", ["memory", "capture"], "memory or capture")
    .meta({ description: "capture proposals promote to a KCS draft knowledge row" }),
  origin: oneOf("origin", ORIGINS, `one of ${ORIGINS.join(", ")}`),
  owner: optionalText("owner", PROPOSAL_LIMITS.ownerMax, { maxLength: PROPOSAL_LIMITS.ownerMax, description: "A DID or an account id, carried to the promoted chunk" }),
  source: optionalText("source", PROPOSAL_LIMITS.sourceMax, { maxLength: PROPOSAL_LIMITS.sourceMax }),
  source_prompt: optionalText("source_prompt", PROPOSAL_LIMITS.sourcePromptMax, { maxLength: PROPOSAL_LIMITS.sourcePromptMax }),
}, { meta: { id: "ProposalRequest" } });

/** What `POST /ingest/proposal` takes. */
export type ProposalBodyInput = z.input<typeof ProposalBody>;

/** Parses a proposal body into a filing input for `door`. */
export function parseProposalBody(raw: unknown, door: string): ProposalInput {
  const b = parseWith(ProposalBody, raw);
  const input: ProposalInput = { content: b.content, door };
  if (b.title !== undefined) input.title = b.title;
  if (b.domain !== undefined) input.domain = b.domain;
  if (b.kind !== undefined) input.kind = b.kind;
  if (b.origin !== undefined) input.origin = b.origin;
  if (b.owner !== undefined && b.owner.trim() !== "") input.owner = b.owner.trim();
  if (b.source !== undefined) input.source = b.source;
  if (b.source_prompt !== undefined) input.sourcePrompt = b.source_prompt;
  return input;
}
