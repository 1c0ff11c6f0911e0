/**
 * KCS rows under erasure (SPEC §1 item 6; issue 17, issue 35): revisions holding erased chunks go in the same
 * transaction; an article left with no revision goes with its translations and requests, and any other moves to its
 * newest remaining revision. The proposals that filed the removed translations are returned, so the erasure deletes
 * them too (their text is the translation's). A data-subject erasure also reaches revisions and translations whose
 * own text names the subject.
 */
import type { TableCounts } from "./erasure-bound.ts";
import type { Exec } from "./db.ts";
import { idParts } from "./erasure.ts";
import { matchWhere } from "./erasure-match.ts";

const marks = (n: number) => Array.from({ length: n }, () => "?").join(",");

/** What a KCS erasure removed, and the translation proposals to delete with it. */
export interface KcsErased {
  counts: TableCounts;
  proposalIds: number[];
}

/** Deletes the revisions pointing at `chunkIds` (and articles left empty, with their translations). */
export async function deleteKcsOfChunks(ex: Exec, chunkIds: readonly number[]): Promise<KcsErased> {
  const out: KcsErased = { counts: { kcs_revisions: 0, kcs_articles: 0, kcs_translations: 0, kcs_translation_requests: 0 }, proposalIds: [] };
  for (const part of idParts(chunkIds)) {
    const hit = await ex.execute({ sql: `SELECT DISTINCT article_id FROM kcs_revisions WHERE chunk_id IN (${marks(part.length)})`, args: part });
    if (!hit.rows.length) continue;
    out.counts.kcs_revisions += (await ex.execute({ sql: `DELETE FROM kcs_revisions WHERE chunk_id IN (${marks(part.length)})`, args: part })).rowsAffected;
    await settleArticles(ex, hit.rows.map((r) => Number(r.article_id)), out);
  }
  return out;
}

/** Articles whose revisions were removed: emptied ones go with their translations, the rest move to their newest revision. */
async function settleArticles(ex: Exec, articleIds: readonly number[], out: KcsErased): Promise<void> {
  for (const id of new Set(articleIds)) {
    const left = await ex.execute({ sql: "SELECT MAX(revision) AS m FROM kcs_revisions WHERE article_id = ?", args: [id] });
    const max = left.rows[0]?.m;
    if (max === null || max === undefined) {
      const props = await ex.execute({
        sql: "SELECT proposal_id FROM kcs_translations WHERE article_id = ? UNION SELECT proposal_id FROM kcs_translation_requests WHERE article_id = ?",
        args: [id, id],
      });
      out.proposalIds.push(...props.rows.map((r) => Number(r.proposal_id)));
      out.counts.kcs_translations += (await ex.execute({ sql: "DELETE FROM kcs_translations WHERE article_id = ?", args: [id] })).rowsAffected;
      out.counts.kcs_translation_requests += (await ex.execute({ sql: "DELETE FROM kcs_translation_requests WHERE article_id = ?", args: [id] })).rowsAffected;
      out.counts.kcs_articles += (await ex.execute({ sql: "DELETE FROM kcs_articles WHERE id = ?", args: [id] })).rowsAffected;
    } else {
      await ex.execute({ sql: "UPDATE kcs_articles SET current_revision = ? WHERE id = ?", args: [Number(max), id] });
    }
  }
}

/** Chunk ids of revisions whose title or body contains a needle (ASCII case-insensitive). */
export async function kcsRevisionChunksMatching(ex: Exec, needles: readonly string[]): Promise<number[]> {
  const m = matchWhere(["title", "body"], needles);
  if (!m) return [];
  const rs = await ex.execute({ sql: `SELECT DISTINCT chunk_id FROM kcs_revisions WHERE chunk_id IS NOT NULL AND ${m.sql}`, args: m.args });
  return rs.rows.map((r) => Number(r.chunk_id));
}

/** Proposal ids of translations and revisions whose own text contains a needle. */
export async function kcsProposalsMatching(ex: Exec, needles: readonly string[]): Promise<number[]> {
  const m = matchWhere(["title", "body"], needles);
  if (!m) return [];
  const rs = await ex.execute({
    sql: `SELECT proposal_id FROM kcs_translations WHERE ${m.sql} UNION SELECT proposal_id FROM kcs_revisions WHERE proposal_id IS NOT NULL AND ${m.sql}`,
    args: [...m.args, ...m.args],
  });
  return rs.rows.map((r) => Number(r.proposal_id));
}

/** Deletes translations and revisions (articles settled as above) whose own text contains a needle. */
export async function deleteKcsMatching(ex: Exec, needles: readonly string[]): Promise<KcsErased> {
  const out: KcsErased = { counts: { kcs_revisions: 0, kcs_articles: 0, kcs_translations: 0, kcs_translation_requests: 0 }, proposalIds: [] };
  const m = matchWhere(["title", "body"], needles);
  if (!m) return out;
  out.counts.kcs_translations += (await ex.execute({ sql: `DELETE FROM kcs_translations WHERE ${m.sql}`, args: m.args })).rowsAffected;
  const hit = await ex.execute({ sql: `SELECT DISTINCT article_id FROM kcs_revisions WHERE ${m.sql}`, args: m.args });
  if (!hit.rows.length) return out;
  out.counts.kcs_revisions += (await ex.execute({ sql: `DELETE FROM kcs_revisions WHERE ${m.sql}`, args: m.args })).rowsAffected;
  await settleArticles(ex, hit.rows.map((r) => Number(r.article_id)), out);
  return out;
}
