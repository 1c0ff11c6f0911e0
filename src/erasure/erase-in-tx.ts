/**
 * The erasure executor shared by `POST /purge`, `POST /dsar`, a hard UMP forget and a domain drop: inside the
 * caller's write transaction, purges the chunks (tombstones, vectors, owned relation references, rows — 900 ids per
 * statement), deletes the proposals reachable through `promoted_chunk_id` plus any extra proposal ids (the
 * content-match delete), and everything that hangs off what it removed (issue 35): consolidation links touching the
 * chunks, their UMP record rows, feedback and vault links, the KCS revisions holding them (an emptied article with its
 * translations and the proposals that filed them), the claims citing them as evidence, and the `channel/out`
 * envelopes, inbound channel messages, merge suggestions and KCS translations bound to the deleted proposals.
 * Lexical and vector index entries are dropped by the caller's index hooks after commit, so a rollback leaves every
 * index untouched.
 */
import type { Exec } from "../store/db.ts";
import { deleteLinksTouching } from "../store/consolidation.ts";
import { addCounts, claimIdsCiting, deleteClaims, deleteRowsOfProposals, nonZero, type TableCounts } from "../store/erasure-bound.ts";
import { purgeChunkRows } from "../store/erasure.ts";
import { deleteKcsOfChunks } from "../store/kcs-erasure.ts";
import { deleteProposals, getProposals, proposalIdsPromotedTo } from "../store/proposals.ts";
import { deleteUmpRowsOfChunks } from "../store/ump-records.ts";

/** What an erasure removed. */
export interface Erased {
  chunkIds: number[];
  proposalIds: number[];
  links: number;
  /** Rows deleted, by table, tables with none left out (the certificate's and the purge audit row's per-table counts). */
  tables: TableCounts;
}

/** Erases chunks and proposals inside `tx`. `chunkIds` must be stored chunk ids. */
export async function eraseInTx(
  tx: Exec,
  o: { chunkIds: number[]; extraProposalIds?: number[]; reason: string; now: string },
): Promise<Erased> {
  const chunkIds = [...new Set(o.chunkIds)].sort((a, b) => a - b);
  const removed = await purgeChunkRows(tx, chunkIds, o.reason, o.now);
  if (removed !== chunkIds.length) throw new Error("erasure found fewer chunks than it located");
  // KCS article revisions copy their chunk's text (issue 17): they go with it, and an emptied article's translations
  // with the proposals that filed them.
  const kcs = await deleteKcsOfChunks(tx, chunkIds);
  // SPEC §3: proposals reachable through promoted_chunk_id go in the same transaction.
  const asked = [...new Set([...(await proposalIdsPromotedTo(tx, chunkIds)), ...(o.extraProposalIds ?? []), ...kcs.proposalIds])];
  const proposalIds = (await getProposals(tx, asked)).map((p) => p.id).sort((a, b) => a - b);
  const tables: TableCounts = { chunks: removed };
  addCounts(tables, kcs.counts);
  addCounts(tables, await deleteRowsOfProposals(tx, proposalIds));
  tables.proposals = await deleteProposals(tx, proposalIds);
  const links = await deleteLinksTouching(tx, chunkIds);
  tables.consolidation_links = links;
  // UMP record rows (their JSON carries titles and owners) and vault file links go with their chunks.
  addCounts(tables, await deleteUmpRowsOfChunks(tx, chunkIds));
  // A claim states what its evidence said: once the evidence is erased the claim goes too (issue 35).
  addCounts(tables, await deleteClaims(tx, await claimIdsCiting(tx, chunkIds)));
  return { chunkIds, proposalIds, links, tables: nonZero(tables) };
}
