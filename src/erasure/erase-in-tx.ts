/**
 * The erasure executor shared by `POST /purge` and `POST /dsar`: inside
 * the caller's write transaction, purges the chunks (tombstones, vectors,
 * owned relation references, rows — 900 ids per statement), deletes the
 * proposals reachable through `promoted_chunk_id` plus any extra proposal
 * ids (the content-match delete), and the consolidation links touching the
 * chunks. Lexical and vector index entries are dropped by the caller's
 * index hooks after commit, so a rollback leaves every index untouched.
 */
import type { Exec } from "../store/db.ts";
import { deleteLinksTouching } from "../store/consolidation.ts";
import { purgeChunkRows } from "../store/erasure.ts";
import { deleteProposals, proposalIdsPromotedTo } from "../store/proposals.ts";
import { deleteUmpRowsOfChunks } from "../store/ump-records.ts";
import { deleteKcsOfChunks } from "../store/kcs.ts";

/** What an erasure removed. */
export interface Erased {
  chunkIds: number[];
  proposalIds: number[];
  links: number;
}

/** Erases chunks and proposals inside `tx`. `chunkIds` must be stored chunk ids. */
export async function eraseInTx(
  tx: Exec,
  o: { chunkIds: number[]; extraProposalIds?: number[]; reason: string; now: string },
): Promise<Erased> {
  const chunkIds = [...new Set(o.chunkIds)].sort((a, b) => a - b);
  const removed = await purgeChunkRows(tx, chunkIds, o.reason, o.now);
  if (removed !== chunkIds.length) throw new Error("erasure found fewer chunks than it located");
  // SPEC §3: proposals reachable through promoted_chunk_id go in the same transaction.
  const proposalIds = [...new Set([...(await proposalIdsPromotedTo(tx, chunkIds)), ...(o.extraProposalIds ?? [])])].sort((a, b) => a - b);
  await deleteProposals(tx, proposalIds);
  const links = await deleteLinksTouching(tx, chunkIds);
  // UMP record rows (their JSON carries titles and owners) and vault file links go with their chunks.
  await deleteUmpRowsOfChunks(tx, chunkIds);
  // KCS article revisions copy their chunk's text (issue 17): they go with it.
  await deleteKcsOfChunks(tx, chunkIds);
  return { chunkIds, proposalIds, links };
}
