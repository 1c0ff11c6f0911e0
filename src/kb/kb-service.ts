/**
 * `memory.kb`: KCS articles, their revisions and translations (SPEC §3
 * approve row, §4.11 `/kcs/translate`), and the data a static `kb build`
 * reads (§4.12). A translation is stale when the article moved past the
 * revision it is pinned to: computed at read time from the two revision
 * numbers, so it can never disagree with the store.
 */
import type { AuditService } from "../audit/audit-service.ts";
import type { InjectionPolicy } from "../config/config.ts";
import { MemoryError } from "../core/errors.ts";
import type { PromotionHook } from "../review/approve-proposal.ts";
import type { DecisionHook } from "../review/decision-hooks.ts";
import type { TxHook } from "../ingest/ports.ts";
import type { Db } from "../store/db.ts";
import {
  currentRevisions, getArticle, getRevision, latestStoredTime, listArticles, listRevisions, listTranslations, translationsByFreshness,
  type ArticleRow, type RevisionRow, type TranslationRow,
} from "../store/kcs.ts";
import { deleteKcsOfChunks } from "../store/kcs-erasure.ts";
import { captureArticleHook } from "./capture-article.ts";
import { fileTranslation, translationHook, TRANSLATE_DOOR, type FiledTranslation, type TranslateInput } from "./translate.ts";

/** A translation as served. */
export interface TranslationView {
  article_id: number;
  locale: string;
  based_revision: number;
  current_revision: number;
  stale: boolean;
  title: string;
  body?: string;
  proposal_id: number;
  approved_at: string;
}

/** An article as listed. */
export interface ArticleSummary {
  id: number;
  domain: string;
  locale: string;
  case_ref?: string;
  revision: number;
  title: string;
  status: "draft";
  created_at: string;
  updated_at: string;
  translations: { locale: string; based_revision: number; stale: boolean }[];
}

/** An article with its body, revision list and translations. */
export interface ArticleView extends Omit<ArticleSummary, "translations"> {
  body: string;
  content_sha256: string;
  revisions: { revision: number; title: string; proposal_id?: number; chunk_id?: number; created_at: string }[];
  translations: TranslationView[];
}

/** One article of a site build: its current revision and approved translations. */
export interface SiteArticle {
  article: ArticleRow;
  current: RevisionRow;
  translations: TranslationRow[];
}

/** KCS operations. */
export interface KbService {
  /** The approval hook registered on the review service (capture → article revision). */
  readonly promotionHook: PromotionHook;
  /** The review door and decision hook of translation proposals. */
  readonly translateDoor: string;
  readonly translationHook: DecisionHook;
  /** A deleted chunk takes the revisions holding it (erasure runs the same delete in its own transaction). */
  readonly txHook: TxHook;
  /** `POST /kcs/translate`. */
  translate(body: TranslateInput, o?: { actor?: string }): Promise<FiledTranslation>;
  listArticles(o?: { domain?: string; after?: number; limit?: number }): Promise<{ articles: ArticleSummary[]; next_after?: number }>;
  getArticle(id: number): Promise<ArticleView>;
  /** Translations, optionally only the stale (or only the fresh) ones, or one article's. */
  listTranslations(o?: { stale?: boolean; articleId?: number }): Promise<TranslationView[]>;
  /** Every article of a domain with its current revision and translations, in id order (what `kb build` reads). */
  siteArticles(domain: string): Promise<SiteArticle[]>;
  /** The newest stored timestamp (a build's stamp: no wall clock, so a build is reproducible). */
  latestStoredTime(): Promise<string | undefined>;
}

const view = (t: TranslationRow, current: number, withBody: boolean): TranslationView => ({
  article_id: t.articleId, locale: t.locale, based_revision: t.basedRevision, current_revision: current, stale: t.basedRevision < current,
  title: t.title, ...(withBody ? { body: t.body } : {}), proposal_id: t.proposalId, approved_at: t.approvedAt,
});

function summaryOf(a: ArticleRow, cur: RevisionRow | undefined, ts: TranslationRow[]): ArticleSummary {
  return {
    id: a.id, domain: a.domain, locale: a.locale, ...(a.caseRef !== undefined ? { case_ref: a.caseRef } : {}), revision: a.revision,
    title: cur?.title ?? "", status: "draft", created_at: a.createdAt, updated_at: a.updatedAt,
    translations: ts.map((t) => ({ locale: t.locale, based_revision: t.basedRevision, stale: t.basedRevision < a.revision })),
  };
}

/** Builds the service. */
export function createKbService(d: { db: Db; audit: AuditService; clock: () => Date; policy: InjectionPolicy }): KbService {
  const ex = d.db.client;
  return {
    promotionHook: captureArticleHook(d),
    translateDoor: TRANSLATE_DOOR,
    translationHook: translationHook(),
    txHook: async (tx, ev) => {
      if (ev.chunkId !== undefined && ev.action === "delete") await deleteKcsOfChunks(tx, [ev.chunkId]);
    },
    translate: (body, o) => fileTranslation(d, body, o),
    async listArticles({ domain, after = 0, limit = 100 } = {}) {
      const lim = Math.max(1, Math.min(500, Math.trunc(limit)));
      const rows = await listArticles(ex, { domain, afterId: after, limit: lim });
      const articles: ArticleSummary[] = [];
      for (const a of rows) articles.push(summaryOf(a, await getRevision(ex, a.id, a.revision), await listTranslations(ex, { articleId: a.id })));
      return rows.length === lim ? { articles, next_after: rows[rows.length - 1].id } : { articles };
    },
    async getArticle(id) {
      const a = await getArticle(ex, id);
      const cur = a && (await getRevision(ex, a.id, a.revision));
      if (!a || !cur) throw new MemoryError("not_found", `KCS article ${id} not found`);
      const ts = await listTranslations(ex, { articleId: id });
      const { translations: _, ...s } = summaryOf(a, cur, ts);
      return {
        ...s, body: cur.body, content_sha256: cur.contentSha256,
        revisions: (await listRevisions(ex, id)).map((r) => ({
          revision: r.revision, title: r.title, ...(r.proposalId !== undefined ? { proposal_id: r.proposalId } : {}),
          ...(r.chunkId !== undefined ? { chunk_id: r.chunkId } : {}), created_at: r.createdAt,
        })),
        translations: ts.map((t) => view(t, a.revision, true)),
      };
    },
    async listTranslations({ stale, articleId } = {}) {
      const rows = articleId !== undefined ? await listTranslations(ex, { articleId })
        : stale === undefined ? await listTranslations(ex, {}) : await translationsByFreshness(ex, stale);
      const current = new Map<number, number>();
      const out: TranslationView[] = [];
      for (const t of rows) {
        if (!current.has(t.articleId)) current.set(t.articleId, (await getArticle(ex, t.articleId))?.revision ?? t.basedRevision);
        const v = view(t, current.get(t.articleId)!, false);
        if (stale === undefined || v.stale === stale) out.push(v);
      }
      return out;
    },
    async siteArticles(domain) {
      const cur = await currentRevisions(ex, domain);
      const byArticle = new Map<number, TranslationRow[]>();
      for (const t of await listTranslations(ex, { domain })) {
        const l = byArticle.get(t.articleId) ?? [];
        l.push(t);
        byArticle.set(t.articleId, l);
      }
      return cur.map((c) => ({ ...c, translations: byArticle.get(c.article.id) ?? [] }));
    },
    latestStoredTime: () => latestStoredTime(ex),
  };
}
