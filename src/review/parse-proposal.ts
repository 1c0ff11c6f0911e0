/**
 * Validation of `POST /ingest/proposal` bodies (SPEC §4.2: body
 * `{content}`). Optional fields are this project's: `title`, `domain`,
 * `kind` (`memory` | `capture`), `origin`, `owner`, `source` (SPEC §8
 * MAX_SOURCE 64 bytes) and `source_prompt` (MAX_SOURCE_PROMPT 2048 bytes).
 */
import { MemoryError } from "../core/errors.ts";
import type { Origin } from "../core/types.ts";
import { normalizeDomainName } from "../domains/domain-name.ts";
import { optionalString, requireObject } from "../ingest/fields.ts";
import { validateContent, validateTitle } from "../ingest/validate-ingest.ts";
import type { ProposalInput } from "./file-proposal.ts";

const ORIGINS: readonly string[] = ["human", "model", "agent", "operator", "imported", "channel"];

/** SPEC §8 write-seam limits. */
export const PROPOSAL_LIMITS = { sourceMax: 64, sourcePromptMax: 2048, ownerMax: 256 } as const;

/** Parses a proposal body into a filing input for `door`. */
export function parseProposalBody(raw: unknown, door: string): ProposalInput {
  const b = requireObject(raw);
  const input: ProposalInput = { content: validateContent(b.content), door };
  if (b.title !== undefined && b.title !== null) input.title = validateTitle(b.title);
  if (b.domain !== undefined && b.domain !== null) input.domain = normalizeDomainName(b.domain);
  const kind = optionalString(b, "kind", 16);
  if (kind !== undefined) {
    if (kind !== "memory" && kind !== "capture") throw new MemoryError("invalid_request", "kind must be memory or capture", { field: "kind" });
    input.kind = kind;
  }
  const origin = optionalString(b, "origin", 16);
  if (origin !== undefined) {
    if (!ORIGINS.includes(origin)) throw new MemoryError("invalid_request", `origin must be one of ${ORIGINS.join(", ")}`, { field: "origin" });
    input.origin = origin as Origin;
  }
  const owner = optionalString(b, "owner", PROPOSAL_LIMITS.ownerMax);
  if (owner !== undefined && owner.trim() !== "") input.owner = owner.trim();
  const source = optionalString(b, "source", PROPOSAL_LIMITS.sourceMax);
  if (source !== undefined) input.source = source;
  const prompt = optionalString(b, "source_prompt", PROPOSAL_LIMITS.sourcePromptMax);
  if (prompt !== undefined) input.sourcePrompt = prompt;
  return input;
}
