/**
 * The approval hook that turns an approved capture proposal into a KCS draft
 * article revision (SPEC §3 approve row: "a KCS draft knowledge row for
 * capture proposals"). It runs inside the approval transaction, so the
 * revision, the chunk and the `approve` audit row commit together.
 *
 * Addressing (x-cairn-choice; the spec does not show it), by the proposal's
 * `source`:
 * - `kcs:<article id>`: a new revision of that article (unknown id: 404
 *   `not_found`, and the approval rolls back: reject the proposal instead);
 * - a `crm:` case reference: a new revision of the article linked to that
 *   case, or a new article linked to it (one article per case);
 * - anything else: a new article with no case link.
 * A capture whose title and body equal the current revision's adds nothing.
 */
import type { AuditService } from "../audit/audit-service.ts";
import { MemoryError } from "../core/errors.ts";
import type { PromotionHook } from "../review/approve-proposal.ts";
import type { Exec } from "../store/db.ts";
import { articleOfCase, getArticle, getRevision, insertArticle, insertRevision, setCurrentRevision } from "../store/kcs.ts";
import type { ProposalRow } from "../store/proposals.ts";
import { CASE_REF } from "../workflow/crm-case.ts";
import { sha256Hex } from "../workflow/emit-event.ts";
import { DEFAULT_LOCALE } from "./locale.ts";

/** Source prefix that addresses an existing article. */
export const ARTICLE_SOURCE = /^kcs:([1-9][0-9]{0,15})$/;

/** The article title: the proposal's title, else its first non-empty line without markdown heading marks (≤ 200 characters). */
export function titleOf(p: Pick<ProposalRow, "title" | "content">): string {
  if (p.title !== undefined && p.title.trim() !== "") return p.title.trim();
  const line = p.content.split(/\r?\n/).map((l) => l.replace(/^#+\s*/, "").trim()).find((l) => l !== "") ?? "Untitled";
  return [...line].slice(0, 200).join("");
}

/** The exact content hash of a revision (duplicate detection, SPEC §9: exact hash only). */
export function revisionHash(title: string, body: string): Promise<string> {
  return sha256Hex(JSON.stringify([title, body]));
}

async function target(tx: Exec, p: ProposalRow) {
  const m = p.source === undefined ? null : ARTICLE_SOURCE.exec(p.source);
  if (m) {
    const a = await getArticle(tx, Number(m[1]));
    if (!a) throw new MemoryError("not_found", `KCS article ${m[1]} not found`, { field: "source", article_id: Number(m[1]) });
    return { article: a };
  }
  const caseRef = p.source !== undefined && CASE_REF.test(p.source) ? p.source : undefined;
  return { article: caseRef ? await articleOfCase(tx, caseRef) : undefined, caseRef };
}

/** Builds the promotion hook. */
export function captureArticleHook(d: { audit: AuditService; clock: () => Date }): PromotionHook {
  return async (tx, p, chunkId) => {
    if (p.kind !== "capture") return;
    const now = d.clock().toISOString();
    const title = titleOf(p);
    const hash = await revisionHash(title, p.content);
    const t = await target(tx, p);
    let id: number;
    let rev: number;
    if (t.article) {
      const cur = await getRevision(tx, t.article.id, t.article.revision);
      if (cur?.contentSha256 === hash) return;
      id = t.article.id;
      rev = t.article.revision + 1;
      await setCurrentRevision(tx, id, rev, now);
    } else {
      id = await insertArticle(tx, { domain: p.domain, locale: DEFAULT_LOCALE, caseRef: t.caseRef, now });
      rev = 1;
    }
    await insertRevision(tx, { articleId: id, revision: rev, title, body: p.content, contentSha256: hash, proposalId: p.id, chunkId, createdAt: now });
    await d.audit.append(tx, {
      action: "kcs_revision", target: `kcs:${id}`,
      detail: { article_id: id, revision: rev, proposal_id: p.id, chunk_id: chunkId, content_sha256: hash, ...(t.caseRef ? { case_ref: t.caseRef } : {}) },
    });
  };
}
