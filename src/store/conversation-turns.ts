/**
 * The stored turns of one conversation session (issue 24): the chunks whose `meta.conversation.session` is the
 * session, in one domain, written for one owner (`meta.owner`), newest first. Index: migration 110.
 */
import type { Exec } from "./db.ts";
import { localOf } from "./domain-dbs.ts";

/** One earlier turn: its chunk title (`Speaker: text`) and labels. */
export interface StoredTurn {
  id: number;
  title: string;
  speaker?: string;
  turn?: number;
}

/** The last `limit` turns of `session` (oldest first), and the highest turn index stored (−1: none). */
export async function lastSessionTurns(
  ex: Exec, o: { domain: string; owner: string; session: string; limit: number },
): Promise<{ turns: StoredTurn[]; lastTurn: number }> {
  const rs = await ex.execute({
    sql: `SELECT id, title, json_extract(meta, '$.conversation.speaker') AS speaker, json_extract(meta, '$.conversation.turn') AS turn
          FROM chunks WHERE json_extract(meta, '$.conversation.session') = ? AND domain = ? AND json_extract(meta, '$.owner') = ?
          ORDER BY id DESC LIMIT ?`,
    args: [o.session, o.domain, o.owner, Math.max(1, o.limit)],
  });
  const turns: StoredTurn[] = rs.rows.map((r) => {
    const t: StoredTurn = { id: Number(r.id), title: String(r.title ?? "") };
    if (r.speaker !== null && r.speaker !== undefined) t.speaker = String(r.speaker);
    if (r.turn !== null && r.turn !== undefined) t.turn = Number(r.turn);
    return t;
  });
  const lastTurn = turns.reduce((m, t) => Math.max(m, t.turn ?? -1), turns.length ? turns.length - 1 : -1);
  return { turns: turns.slice(0, o.limit).reverse(), lastTurn };
}

/** The chunks of one session that an import of `source` stored (`meta.conversation.source`), with their hashes. */
export async function sessionChunks(ex: Exec, o: { domain: string; session: string; source: string }): Promise<{ id: number; contentHash: string }[]> {
  ex = localOf(ex);
  const rs = await ex.execute({
    sql: `SELECT id, content_hash FROM chunks WHERE json_extract(meta, '$.conversation.session') = ? AND domain = ?
          AND json_extract(meta, '$.conversation.source') = ? ORDER BY id`,
    args: [o.session, o.domain, o.source],
  });
  return rs.rows.map((r) => ({ id: Number(r.id), contentHash: String(r.content_hash) }));
}
