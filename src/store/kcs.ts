/**
 * KCS article rows (migration 60; issue 17, SPEC §3 approve row, §4.11
 * `/kcs/translate`): articles and their numbered revisions, per-locale
 * translations pinned to a revision and pending translation requests. The
 * erasure deletes are in `kcs-erasure.ts`.
 */
import type { Row } from "@libsql/client";
import type { Exec } from "./db.ts";

/** An article row; `revision` is its current revision number. */
export interface ArticleRow {
  id: number;
  domain: string;
  locale: string;
  caseRef?: string;
  revision: number;
  createdAt: string;
  updatedAt: string;
}

/** One revision of an article. */
export interface RevisionRow {
  articleId: number;
  revision: number;
  title: string;
  body: string;
  contentSha256: string;
  proposalId?: number;
  chunkId?: number;
  createdAt: string;
}

/** An approved translation. */
export interface TranslationRow {
  articleId: number;
  locale: string;
  basedRevision: number;
  title: string;
  body: string;
  proposalId: number;
  approvedAt: string;
}

/** A `/kcs/translate` request waiting on its proposal. */
export interface TranslationRequestRow {
  proposalId: number;
  articleId: number;
  locale: string;
  basedRevision: number;
  status: "pending" | "approved" | "rejected";
}

const num = (v: unknown): number | undefined => (v === null || v === undefined ? undefined : Number(v));

function article(r: Row): ArticleRow {
  const a: ArticleRow = {
    id: Number(r.id), domain: String(r.domain), locale: String(r.locale), revision: Number(r.current_revision),
    createdAt: String(r.created_at), updatedAt: String(r.updated_at),
  };
  if (r.case_ref !== null && r.case_ref !== undefined) a.caseRef = String(r.case_ref);
  return a;
}

function revision(r: Row): RevisionRow {
  const v: RevisionRow = {
    articleId: Number(r.article_id), revision: Number(r.revision), title: String(r.title), body: String(r.body),
    contentSha256: String(r.content_sha256), createdAt: String(r.created_at),
  };
  const p = num(r.proposal_id);
  const c = num(r.chunk_id);
  if (p !== undefined) v.proposalId = p;
  if (c !== undefined) v.chunkId = c;
  return v;
}

function translation(r: Row): TranslationRow {
  return {
    articleId: Number(r.article_id), locale: String(r.locale), basedRevision: Number(r.based_revision), title: String(r.title),
    body: String(r.body), proposalId: Number(r.proposal_id), approvedAt: String(r.approved_at),
  };
}

/** One article. */
export async function getArticle(ex: Exec, id: number): Promise<ArticleRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM kcs_articles WHERE id = ?", args: [id] });
  return rs.rows.length ? article(rs.rows[0]) : undefined;
}

/** The article linked to a case reference. */
export async function articleOfCase(ex: Exec, caseRef: string): Promise<ArticleRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM kcs_articles WHERE case_ref = ?", args: [caseRef] });
  return rs.rows.length ? article(rs.rows[0]) : undefined;
}

/** A page of articles in id order, optionally of one domain. */
export async function listArticles(ex: Exec, o: { domain?: string; afterId: number; limit: number }): Promise<ArticleRow[]> {
  const rs = o.domain === undefined
    ? await ex.execute({ sql: "SELECT * FROM kcs_articles WHERE id > ? ORDER BY id LIMIT ?", args: [o.afterId, o.limit] })
    : await ex.execute({ sql: "SELECT * FROM kcs_articles WHERE domain = ? AND id > ? ORDER BY id LIMIT ?", args: [o.domain, o.afterId, o.limit] });
  return rs.rows.map(article);
}

/** Inserts an article at revision 1; returns its id. */
export async function insertArticle(ex: Exec, a: { domain: string; locale: string; caseRef?: string; now: string }): Promise<number> {
  const rs = await ex.execute({
    sql: "INSERT INTO kcs_articles (domain, locale, case_ref, current_revision, created_at, updated_at) VALUES (?, ?, ?, 1, ?, ?)",
    args: [a.domain, a.locale, a.caseRef ?? null, a.now, a.now],
  });
  return Number(rs.lastInsertRowid);
}

/** Moves an article to a new current revision. */
export async function setCurrentRevision(ex: Exec, id: number, rev: number, now: string): Promise<void> {
  await ex.execute({ sql: "UPDATE kcs_articles SET current_revision = ?, updated_at = ? WHERE id = ?", args: [rev, now, id] });
}

/** Inserts a revision. */
export async function insertRevision(ex: Exec, r: RevisionRow): Promise<void> {
  await ex.execute({
    sql: `INSERT INTO kcs_revisions (article_id, revision, title, body, content_sha256, proposal_id, chunk_id, created_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    args: [r.articleId, r.revision, r.title, r.body, r.contentSha256, r.proposalId ?? null, r.chunkId ?? null, r.createdAt],
  });
}

/** One revision (the current one when `rev` is the article's). */
export async function getRevision(ex: Exec, articleId: number, rev: number): Promise<RevisionRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM kcs_revisions WHERE article_id = ? AND revision = ?", args: [articleId, rev] });
  return rs.rows.length ? revision(rs.rows[0]) : undefined;
}

/** Every revision of an article, oldest first. */
export async function listRevisions(ex: Exec, articleId: number): Promise<RevisionRow[]> {
  const rs = await ex.execute({ sql: "SELECT * FROM kcs_revisions WHERE article_id = ? ORDER BY revision", args: [articleId] });
  return rs.rows.map(revision);
}

/** The current revisions of a domain's articles, by article id (what a site build reads). */
export async function currentRevisions(ex: Exec, domain: string): Promise<{ article: ArticleRow; current: RevisionRow }[]> {
  const rs = await ex.execute({
    sql: `SELECT a.*, r.article_id, r.revision, r.title, r.body, r.content_sha256, r.proposal_id, r.chunk_id, r.created_at AS rev_created_at
          FROM kcs_articles a JOIN kcs_revisions r ON r.article_id = a.id AND r.revision = a.current_revision
          WHERE a.domain = ? ORDER BY a.id`,
    args: [domain],
  });
  return rs.rows.map((row) => ({ article: article(row), current: { ...revision(row), createdAt: String(row.rev_created_at) } }));
}

/** Translations of one article (by locale), or of every article of a domain. */
export async function listTranslations(ex: Exec, o: { articleId?: number; domain?: string }): Promise<TranslationRow[]> {
  if (o.articleId !== undefined) {
    const rs = await ex.execute({ sql: "SELECT * FROM kcs_translations WHERE article_id = ? ORDER BY locale", args: [o.articleId] });
    return rs.rows.map(translation);
  }
  const rs = o.domain === undefined
    ? await ex.execute("SELECT * FROM kcs_translations ORDER BY article_id, locale")
    : await ex.execute({
      sql: `SELECT t.* FROM kcs_translations t JOIN kcs_articles a ON a.id = t.article_id WHERE a.domain = ? ORDER BY t.article_id, t.locale`,
      args: [o.domain],
    });
  return rs.rows.map(translation);
}

/** Translations pinned below their article's current revision (stale), or at it (fresh). */
export async function translationsByFreshness(ex: Exec, stale: boolean): Promise<TranslationRow[]> {
  const rs = await ex.execute(`SELECT t.* FROM kcs_translations t JOIN kcs_articles a ON a.id = t.article_id
    WHERE ${stale ? "t.based_revision < a.current_revision" : "t.based_revision >= a.current_revision"} ORDER BY t.article_id, t.locale`);
  return rs.rows.map(translation);
}

/** Writes (or replaces) the translation of an article for one locale. */
export async function upsertTranslation(ex: Exec, t: TranslationRow): Promise<void> {
  await ex.execute({
    sql: `INSERT INTO kcs_translations (article_id, locale, based_revision, title, body, proposal_id, approved_at) VALUES (?, ?, ?, ?, ?, ?, ?)
          ON CONFLICT (article_id, locale) DO UPDATE SET based_revision = excluded.based_revision, title = excluded.title,
            body = excluded.body, proposal_id = excluded.proposal_id, approved_at = excluded.approved_at`,
    args: [t.articleId, t.locale, t.basedRevision, t.title, t.body, t.proposalId, t.approvedAt],
  });
}

/** Records a pending translation request for a proposal. */
export async function insertTranslationRequest(ex: Exec, r: Omit<TranslationRequestRow, "status">, now: string): Promise<void> {
  await ex.execute({
    sql: "INSERT INTO kcs_translation_requests (proposal_id, article_id, locale, based_revision, status, created_at) VALUES (?, ?, ?, ?, 'pending', ?)",
    args: [r.proposalId, r.articleId, r.locale, r.basedRevision, now],
  });
}

/** The request a proposal stands for. */
export async function getTranslationRequest(ex: Exec, proposalId: number): Promise<TranslationRequestRow | undefined> {
  const rs = await ex.execute({ sql: "SELECT * FROM kcs_translation_requests WHERE proposal_id = ?", args: [proposalId] });
  if (!rs.rows.length) return undefined;
  const r = rs.rows[0];
  return {
    proposalId: Number(r.proposal_id), articleId: Number(r.article_id), locale: String(r.locale),
    basedRevision: Number(r.based_revision), status: String(r.status) as TranslationRequestRow["status"],
  };
}

/** Moves a request to its decision. */
export async function decideTranslationRequest(ex: Exec, proposalId: number, status: "approved" | "rejected", now: string): Promise<void> {
  await ex.execute({ sql: "UPDATE kcs_translation_requests SET status = ?, decided_at = ? WHERE proposal_id = ?", args: [status, now, proposalId] });
}

/** The newest stored timestamp among articles, revisions, translations and the audit log (a build's stamp source). */
export async function latestStoredTime(ex: Exec): Promise<string | undefined> {
  const rs = await ex.execute(`SELECT MAX(t) AS t FROM (
      SELECT MAX(updated_at) AS t FROM kcs_articles UNION ALL SELECT MAX(approved_at) FROM kcs_translations
      UNION ALL SELECT MAX(ts) FROM audit_log)`);
  const t = rs.rows[0]?.t;
  return t === null || t === undefined ? undefined : String(t);
}
