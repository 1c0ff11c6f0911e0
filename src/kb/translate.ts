/**
 * `POST /kcs/translate` (SPEC §4.11): a human translation of a KCS article
 * for one locale, filed as a review proposal (door `kcs:translate`, the
 * same screen, score, digest-bound approval and audit rows as every
 * proposal). Approval writes the per-locale row pinned to `based_revision`
 * (default: the article's current revision); rejection writes nothing but
 * the decision. Body (x-cairn-choice): `{article_id, locale, title, body,
 * based_revision?}`.
 */
import type { AuditService } from "../audit/audit-service.ts";
import type { InjectionPolicy } from "../config/config.ts";
import { z } from "zod";
import { MemoryError } from "../core/errors.ts";
import { body, parseWith, specError } from "../core/schema.ts";
import { Content, Title } from "../ingest/ingest-schema.ts";
import type { DecisionHook } from "../review/decision-hooks.ts";
import type { Db } from "../store/db.ts";
import { decideTranslationRequest, getArticle, getTranslationRequest, insertTranslationRequest, upsertTranslation } from "../store/kcs.ts";
import { fileGovernedProposal } from "../workflow/governed-proposal.ts";
import { localeField } from "./locale.ts";

/** The review door translations are filed through. */
export const TRANSLATE_DOOR = "kcs:translate";

/** What filing answered. */
export interface FiledTranslation {
  proposal_id: number;
  status: "pending";
  article_id: number;
  locale: string;
  based_revision: number;
  verdict: string;
}

/** What translation filing needs. */
export interface TranslateDeps {
  db: Db;
  audit: AuditService;
  clock: () => Date;
  policy: InjectionPolicy;
}

function positiveInt(field: string) {
  const e = specError("invalid_request", `${field} must be a positive integer`, { field });
  return z.number({ error: e }).int({ error: e }).min(1, { error: e }).max(Number.MAX_SAFE_INTEGER, { error: e });
}

/** `POST /kcs/translate` (SPEC §4.11, shape this project's choice): a human translation of an article, filed for review. */
export const TranslateBody = body({
  article_id: positiveInt("article_id"),
  locale: localeField("locale"),
  title: Title,
  body: Content,
  based_revision: positiveInt("based_revision").optional().meta({ description: "Default: the article's current revision" }),
}, { error: specError("invalid_request", "body must be a JSON object", { field: "body" }, 400), nulls: ["article_id", "locale", "title", "body"], meta: { id: "KcsTranslateRequest", "x-cairn-choice": true } });

/** What `POST /kcs/translate` takes. */
export type TranslateInput = z.input<typeof TranslateBody>;

/** Validates and files a translation; 404 for an unknown article. */
export async function fileTranslation(d: TranslateDeps, raw: TranslateInput, o: { actor?: string } = {}): Promise<FiledTranslation> {
  const { article_id: articleId, locale, title, body, based_revision: based } = parseWith(TranslateBody, raw);
  return await d.db.write(async (tx) => {
    const a = await getArticle(tx, articleId);
    if (!a) throw new MemoryError("not_found", `KCS article ${articleId} not found`, { field: "article_id" });
    if (locale === a.locale) throw new MemoryError("locale_invalid", `article ${articleId} is written in ${a.locale}; a translation needs another locale`, { field: "locale" });
    const rev = based ?? a.revision;
    if (rev > a.revision) {
      throw new MemoryError("invalid_request", `based_revision ${rev} is newer than the article's revision ${a.revision}`, { field: "based_revision", max: a.revision });
    }
    const now = d.clock().toISOString();
    const p = await fileGovernedProposal(tx, { audit: d.audit, policy: d.policy, now }, {
      door: TRANSLATE_DOOR, origin: "human", title, content: body, source: `kcs:${articleId}`,
      sourcePrompt: `Translation of KCS article ${articleId} (revision ${rev}, ${a.locale}) into ${locale}${o.actor ? ` by ${o.actor}` : ""}`,
    });
    await insertTranslationRequest(tx, { proposalId: p.id, articleId, locale, basedRevision: rev }, now);
    return { proposal_id: p.id, status: "pending", article_id: articleId, locale, based_revision: rev, verdict: p.verdict };
  });
}

/** What deciding a translation proposal does: approval writes the per-locale row pinned to its revision. */
export function translationHook(): DecisionHook {
  return {
    async approved(tx, p, now) {
      const r = await getTranslationRequest(tx, p.id);
      if (!r) return {};
      await decideTranslationRequest(tx, p.id, "approved", now);
      const a = await getArticle(tx, r.articleId);
      if (!a) return { article_id: r.articleId, locale: r.locale, written: false };
      await upsertTranslation(tx, {
        articleId: r.articleId, locale: r.locale, basedRevision: r.basedRevision, title: p.title ?? "", body: p.content, proposalId: p.id, approvedAt: now,
      });
      return { article_id: r.articleId, locale: r.locale, based_revision: r.basedRevision, stale: r.basedRevision < a.revision, written: true };
    },
    async rejected(tx, p, now) {
      if (await getTranslationRequest(tx, p.id)) await decideTranslationRequest(tx, p.id, "rejected", now);
    },
  };
}
