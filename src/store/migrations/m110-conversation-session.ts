/**
 * Migration 110 (issue 24): an expression index on a chunk's conversation session
 * (`meta.conversation.session`). A UMP `episodic` record with `scope.session` is stored as a conversation turn
 * whose content carries the turns before it in that session (src/conversation/ump-turn.ts); the write looks
 * them up by this key, which without the index is a scan of every chunk per write.
 */
import type { Migration } from "./migration.ts";

/** The index. */
export const m110ConversationSession: Migration = {
  version: 110,
  stamp: "1.32.110",
  statements: [`CREATE INDEX IF NOT EXISTS chunks_conversation_session ON chunks (json_extract(meta, '$.conversation.session'))`],
};
