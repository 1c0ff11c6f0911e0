/**
 * A UMP `episodic` record with `scope.session` is stored as a conversation
 * turn (issue 24 item 1; src/conversation/ump-turn.ts): this reads the
 * session's earlier turns of the same owner and domain and gives the chunk
 * fields (title, windowed content, identity hash, `meta.conversation`) that
 * `remember`, imports, `?format=ump` and the review queue all use.
 */
import { isConversationTurn, UMP_TURN_WINDOW, umpTurnChunk } from "../conversation/ump-turn.ts";
import type { Exec } from "../store/db.ts";
import { lastSessionTurns } from "../store/conversation-turns.ts";
import type { UmpRecord } from "./types.ts";

/** The chunk fields of a turn record; undefined for any other record (stored as its plain text). */
export async function turnChunkOf(
  ex: Exec, record: UmpRecord, domain: string,
): Promise<{ title: string; content: string; contentHash: string; conversation: Record<string, unknown> } | undefined> {
  if (!isConversationTurn(record)) return undefined;
  const prior = await lastSessionTurns(ex, { domain, owner: record.scope.owner, session: record.scope.session!, limit: UMP_TURN_WINDOW.before + 1 });
  return await umpTurnChunk(record, prior.turns, prior.lastTurn);
}
