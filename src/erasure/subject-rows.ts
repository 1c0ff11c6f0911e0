/**
 * What a data-subject erasure reaches beyond chunks, proposals and the graph (issue 35; SPEC §1 item 6, §3 erasure
 * row): every other table whose text can name the subject, located by the same email / match text as the chunks.
 * `locateSubjectRows` runs first, inside the erasure's transaction: it adds the chunks of UMP records, KCS revisions
 * and file sources that name the subject to the chunk erasure, and the proposals of matching `channel/out` envelopes
 * and KCS translations to the proposal delete. `eraseSubjectRows` runs after the chunk and proposal erasure, in the
 * same transaction:
 *
 * | table | how |
 * |---|---|
 * | workflow_events | payload strings naming the subject become `[erased]` (the event, its type and its audit link stay) |
 * | workflow_runs | the same in `state_json` and `case_json`; a matching bound conversation is unbound |
 * | channel_out, channel_messages | deleted (text, conversation or message id names the subject) |
 * | claims (+ claim_evidence, batch membership) | deleted |
 * | claim_batches (+ members) | deleted (name names the subject; the member claims stay) |
 * | kcs_translations, kcs_revisions | deleted (an emptied article with its translations) |
 * | ump_feedback | deleted (session or actor names the subject) |
 * | file_sources (+ links) | deleted (path or record id names the subject) |
 * | tombstones | a reason carrying an older hard forget's free text that names the subject becomes `ump_forget` |
 */
import type { Exec } from "../store/db.ts";
import { addCounts, deleteClaimBatches, deleteClaims, deleteRowsOfProposals, type TableCounts } from "../store/erasure-bound.ts";
import { deleteProposals } from "../store/proposals.ts";
import {
  channelMessagesMatching, channelOutMatching, claimBatchesMatching, claimsMatching, deleteIds, eventsMatching, fileSourcesMatching, redactTombstoneReasons,
  runsMatching, setEventPayload, setRunErased, umpChunksMatching, umpFeedbackMatching, type RunText,
} from "../store/erasure-match.ts";
import { deleteKcsMatching, kcsProposalsMatching, kcsRevisionChunksMatching } from "../store/kcs-erasure.ts";
import { holdsNeedle, redactJsonText } from "./redact-json.ts";

/** The rows located before anything is erased (a dry run reports their counts). */
export interface SubjectRows {
  chunkIds: number[];
  proposalIds: number[];
  events: { id: number; payload: string }[];
  runs: RunText[];
  channelOut: number[];
  channelMessages: number[];
  claims: { id: number; claimJson: string }[];
  claimBatches: number[];
  fileSources: number[];
  feedback: number[];
}

/** Locates the subject's rows in every table beyond chunks and proposals. */
export async function locateSubjectRows(tx: Exec, needles: readonly string[]): Promise<SubjectRows> {
  const files = await fileSourcesMatching(tx, needles);
  const out = await channelOutMatching(tx, needles);
  return {
    chunkIds: [...await umpChunksMatching(tx, needles), ...await kcsRevisionChunksMatching(tx, needles), ...files.chunkIds],
    proposalIds: [...out.map((o) => o.proposalId), ...await kcsProposalsMatching(tx, needles)],
    events: await eventsMatching(tx, needles),
    runs: await runsMatching(tx, needles),
    channelOut: out.map((o) => o.id),
    channelMessages: await channelMessagesMatching(tx, needles),
    claims: await claimsMatching(tx, needles),
    claimBatches: await claimBatchesMatching(tx, needles),
    fileSources: files.ids,
    feedback: await umpFeedbackMatching(tx, needles),
  };
}

/** Row counts a dry run reports, by table. */
export function locatedCounts(r: SubjectRows): TableCounts {
  return {
    workflow_events: r.events.length, workflow_runs: r.runs.length, channel_out: r.channelOut.length, channel_messages: r.channelMessages.length,
    claims: r.claims.length, claim_batches: r.claimBatches.length, file_sources: r.fileSources.length, ump_feedback: r.feedback.length,
  };
}

/** Erases the located rows (after the chunk and proposal erasure); returns rows deleted and rows redacted, by table. */
export async function eraseSubjectRows(tx: Exec, r: SubjectRows, needles: readonly string[]): Promise<{ deleted: TableCounts; redacted: TableCounts }> {
  const deleted: TableCounts = {};
  const redacted: TableCounts = { workflow_events: 0, workflow_runs: 0, tombstones: 0 };
  for (const e of r.events) {
    const next = redactJsonText(e.payload, needles);
    if (next === undefined) continue;
    await setEventPayload(tx, e.id, next);
    redacted.workflow_events++;
  }
  for (const run of r.runs) {
    const state = redactJsonText(run.stateJson, needles);
    const kase = run.caseJson === null ? undefined : redactJsonText(run.caseJson, needles);
    const unbind = run.conversationRef !== null && holdsNeedle(run.conversationRef, needles);
    if (state === undefined && kase === undefined && !unbind) continue;
    await setRunErased(tx, { id: run.id, stateJson: state ?? run.stateJson, caseJson: kase ?? run.caseJson, unbind });
    redacted.workflow_runs++;
  }
  // Rows bound to a deleted proposal are already gone (eraseInTx); these are the ones that name the subject themselves.
  addCounts(deleted, { channel_out: await deleteIds(tx, "channel_out", r.channelOut) });
  addCounts(deleted, { channel_messages: await deleteIds(tx, "channel_messages", r.channelMessages) });
  addCounts(deleted, await deleteClaims(tx, r.claims.map((c) => c.id)));
  addCounts(deleted, await deleteClaimBatches(tx, r.claimBatches));
  const kcs = await deleteKcsMatching(tx, needles);
  addCounts(deleted, kcs.counts);
  // An article emptied here (a revision that held no chunk) takes its translations' proposals along.
  addCounts(deleted, await deleteRowsOfProposals(tx, kcs.proposalIds));
  addCounts(deleted, { proposals: await deleteProposals(tx, kcs.proposalIds) });
  addCounts(deleted, { ump_feedback: await deleteIds(tx, "ump_feedback", r.feedback) });
  addCounts(deleted, { file_sources: await deleteIds(tx, "file_sources", r.fileSources) });
  redacted.tombstones = await redactTombstoneReasons(tx, needles);
  return { deleted, redacted };
}
