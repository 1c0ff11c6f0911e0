/**
 * The opt-in model-provider lane (SPEC §1 items 3 and 10; issue 17). It is
 * used only in the governed workflow and never in the retrieval path: it
 * drafts a KCS article from a closed case, filed as a pending `capture`
 * proposal (origin `model`, `source` = the case reference) that a human
 * approves through the ordinary review gate, and it suggests a translation
 * that a human submits to `POST /kcs/translate`. With the lane off every
 * call answers 409 `provider_disabled`.
 */
import { z } from "zod";
import { MemoryError } from "../core/errors.ts";
import { body as bodySchema, parseWith, specError } from "../core/schema.ts";
import { sanitizeForRead } from "../hygiene/sanitize-for-read.ts";
import type { FiledProposal, ProposalInput } from "../review/file-proposal.ts";
import type { RunView } from "../workflow/deps.ts";
import { chatComplete, type ChatSettings } from "./chat-completions.ts";
import { draftTitle, kcsDraftPrompt, translatePrompt, type CaseMaterial } from "./prompts.ts";

/** The review door the drafts are filed through. */
export const KCS_DRAFT_DOOR = "/workflow/runs/{id}/kcs-draft";
/** Largest text a translation suggestion takes, in characters. */
export const MAX_TRANSLATE_CHARS = 100_000;
/** SPEC §8: content is at most 1,000,000 bytes. */
const MAX_CONTENT_BYTES = 1_000_000;
const LOCALE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,3}$/;
const badText = specError("invalid_request", `text must be 1 to ${MAX_TRANSLATE_CHARS} characters`, { field: "text" });
const badLocale = specError("locale_invalid", "locale must be a BCP 47 tag such as de or pt-BR", { field: "locale" });
const badArticle = specError("invalid_request", "article_id must be a positive integer or a string of 1 to 128 characters", { field: "article_id" });

/** `POST /kcs/translate/suggest` (shape this project's choice); a body that is not an object reads as `{}`. */
export const SuggestBody = bodySchema({
  text: z.string({ error: badText }).refine((t) => t.trim() !== "" && t.length <= MAX_TRANSLATE_CHARS, { error: badText }).meta({ maxLength: MAX_TRANSLATE_CHARS }),
  locale: z.string({ error: badLocale }).regex(LOCALE, { error: badLocale }).meta({ example: "de" }),
  article_id: z.union([
    z.string().min(1).max(128),
    z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  ], { error: badArticle }).optional().meta({ description: "Echoed back; integer or string" }),
}, { error: badText, nulls: ["text", "locale"], meta: { id: "KcsSuggestRequest", "x-cairn-choice": true } });

/** What `POST /kcs/translate/suggest` takes. */
export type SuggestInput = z.input<typeof SuggestBody>;

/** Token usage of one call, as the provider reported it. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
}

/** What drafting answers. */
export interface KcsDraftResult {
  proposal_id: number;
  status: "pending";
  duplicate?: true;
  run_id: number;
  case_ref: string;
  provider: string;
  model: string;
  usage: Usage;
}

/** What a translation suggestion answers (nothing is stored). */
export interface TranslationSuggestion {
  suggestion: { locale: string; text: string; article_id?: string | number };
  origin: "model";
  submit_to: "/kcs/translate";
  provider: string;
  model: string;
  usage: Usage;
}

/** The lane. */
export interface ProviderService {
  readonly enabled: boolean;
  readonly name?: string;
  draftKcs(runId: number): Promise<KcsDraftResult>;
  suggestTranslation(body: SuggestInput): Promise<TranslationSuggestion>;
}

/** What the lane reads and writes through (the composition root passes the workflow and review services). */
export interface ProviderDeps {
  /** Absent when the lane is off. */
  chat?: ChatSettings;
  getRun(id: number): Promise<RunView & { events: Record<string, unknown>[] }>;
  fileProposal(p: ProposalInput): Promise<FiledProposal>;
}

function disabled(): never {
  throw new MemoryError("provider_disabled", "The model-provider lane is off: set CAIRN_PROVIDER_URL and CAIRN_PROVIDER_KEY_FILE", undefined, 409);
}

/** The case material of a run, redacted, without flagged notes. */
export function caseMaterial(run: RunView & { events: Record<string, unknown>[] }): CaseMaterial {
  const title = typeof run.case?.title === "string" ? run.case.title : run.case_ref;
  const notes: CaseMaterial["notes"] = [];
  for (const e of run.events) {
    const p = (e.payload ?? {}) as { text?: unknown; flagged?: unknown };
    if ((e.type === "run/note" || e.type === "channel/in") && typeof p.text === "string" && p.flagged !== true) notes.push({ type: String(e.type), text: p.text });
  }
  return { caseRef: run.case_ref, title: sanitizeForRead(title, { piiRead: false }), notes };
}

/** Builds the lane. */
export function createProviderService(d: ProviderDeps): ProviderService {
  const chat = d.chat;
  return {
    enabled: chat !== undefined,
    name: chat?.name,
    async draftKcs(runId) {
      if (!chat) disabled();
      // Events come back through the read seam without pii:read, so the provider never sees personal data.
      const run = await d.getRun(runId);
      if (run.state !== "closed_solved") {
        throw new MemoryError("run_not_closed", "A KCS draft needs a closed_solved case", { state: run.state }, 409);
      }
      const material = caseMaterial(run);
      const reply = await chatComplete(chat, kcsDraftPrompt(material));
      // SPEC §8 MAX_CONTENT: a reply the review gate could not hold is the provider's failure, not a 400 of the caller's.
      if (new TextEncoder().encode(reply.text).byteLength > MAX_CONTENT_BYTES) {
        throw new MemoryError("provider_failed", "The model provider's draft is longer than an entry may be", { provider: chat.name, outcome: "too_long" }, 502);
      }
      const filed = await d.fileProposal({
        kind: "capture", origin: "model", source: run.case_ref, door: KCS_DRAFT_DOOR,
        title: draftTitle(reply.text, material.title), content: reply.text,
        sourcePrompt: `KCS draft by model ${reply.model} (provider ${chat.name}) from closed case ${run.case_ref}`.slice(0, 2048),
      });
      const out: KcsDraftResult = {
        proposal_id: filed.id, status: "pending", run_id: run.id, case_ref: run.case_ref, provider: chat.name, model: reply.model, usage: reply.usage,
      };
      if (filed.duplicate) out.duplicate = true;
      return out;
    },
    async suggestTranslation(body) {
      if (!chat) disabled();
      const b = parseWith(SuggestBody, body);
      const reply = await chatComplete(chat, translatePrompt(b.text, b.locale));
      const suggestion: TranslationSuggestion["suggestion"] = { locale: b.locale, text: reply.text };
      if (b.article_id !== undefined) suggestion.article_id = b.article_id;
      return { suggestion, origin: "model", submit_to: "/kcs/translate", provider: chat.name, model: reply.model, usage: reply.usage };
    },
  };
}
