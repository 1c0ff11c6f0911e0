/**
 * UMP `episodic` records that carry `scope.session` are conversation turns
 * (issue 24 item 1): they reach the same rendering as `POST /ingest/conversation`
 * — title `Speaker: text` (BM25F's title field), content = session line, the
 * turns before it in that session, the turn, and its relative dates resolved
 * against the day it was observed — and the same `meta.conversation` labels, so
 * speaker- and date-aware recall see them. A record arrives alone, so its
 * window holds only earlier turns (stored turns of the same session, domain
 * and owner, newest two), never later ones. The record itself is unchanged:
 * its `body.text` is kept in the record row (src/ump/record-rows.ts), since the
 * chunk's content is the window.
 *
 * Speaker (this project's choice; UMP names none): `body.structured.speaker`
 * when it is a string, else `scope.user` for a `user` actor or `scope.agent`
 * for an `agent`/`model` actor, else the last segment of `provenance.actor`.
 */
import { xxh3Hex } from "../core/content-hash.ts";
import type { UmpRecord } from "../ump/types.ts";
import { parseSessionDay, resolveRelativeDates, spellDay } from "./dates.ts";
import { clipBytes, conversationMeta, renderTurn, TITLE_MAX, type TurnWindow } from "./turn-window.ts";

/** Turns before a UMP turn its content carries (the conversation door's default `before`). */
export const UMP_TURN_WINDOW: Readonly<TurnWindow> = Object.freeze({ before: 2, after: 0 });

/** SPEC §8: content is at most 1,000,000 bytes; a turn whose window would pass it is stored as a plain record. */
const MAX_CONTENT_BYTES = 1_000_000;
const enc = new TextEncoder();

/** True when the record is a conversation turn: kind `episodic` with a non-empty `scope.session`. */
export function isConversationTurn(r: Pick<UmpRecord, "kind" | "scope">): boolean {
  return r.kind === "episodic" && typeof r.scope?.session === "string" && r.scope.session.trim() !== "";
}

const lastSegment = (s: string | undefined): string | undefined => s?.split(/[:/]/).pop()?.trim() || undefined;

/** The speaker label of a turn record (see the module comment). */
export function speakerOf(r: UmpRecord): string {
  const structured = r.body.structured as { speaker?: unknown } | undefined;
  if (typeof structured?.speaker === "string" && structured.speaker.trim() !== "") return structured.speaker.trim().slice(0, 200);
  const kind = r.provenance?.actor_kind;
  const scoped = kind === "user" ? r.scope.user : kind === "agent" || kind === "model" ? r.scope.agent : undefined;
  return (lastSegment(scoped) ?? lastSegment(r.provenance?.actor) ?? lastSegment(r.scope.owner) ?? "unknown").slice(0, 200);
}

/** An earlier turn of the session as stored: its chunk title and speaker label. */
export interface EarlierTurn {
  title: string;
  speaker?: string;
}

/**
 * The chunk fields of a turn record, or undefined when its window would exceed the content limit. `stored` is
 * the session's last `UMP_TURN_WINDOW.before + 1` stored turns, oldest first, and `lastTurn` the highest turn
 * index among them. A record whose turn is the last stored one (same speaker, same words: a retried write) is
 * rendered as that turn was, so it is a duplicate of it and the record merges, not a second turn.
 */
export async function umpTurnChunk(
  r: UmpRecord, stored: readonly EarlierTurn[], lastTurn: number,
): Promise<{ title: string; content: string; contentHash: string; conversation: Record<string, unknown> } | undefined> {
  const speaker = speakerOf(r);
  const replay = stored.length > 0 && stored[stored.length - 1].title === clipBytes(`${speaker}: ${r.body.text}`.replace(/\s+/g, " ").trim(), TITLE_MAX);
  const earlier = (replay ? stored.slice(0, -1) : stored).slice(-UMP_TURN_WINDOW.before);
  const turn = replay ? lastTurn : lastTurn + 1;
  const session = r.scope.session!;
  const day = parseSessionDay(r.time.observed);
  const dayIso = day !== undefined ? new Date(day).toISOString().slice(0, 10) : undefined;
  const dates = day !== undefined ? resolveRelativeDates(r.body.text, day) : [];
  // Earlier turns are stored as `Speaker: text` titles; split the label back off for the window's lines.
  const turns = earlier.map((t) => t.speaker !== undefined && t.title.startsWith(`${t.speaker}: `)
    ? { speaker: t.speaker, text: t.title.slice(t.speaker.length + 2) } : { speaker: t.speaker ?? "", text: t.title });
  turns.push({ speaker, text: r.body.text });
  const rendered = renderTurn(turns, turns.length - 1, {
    session: { id: session, ...(dayIso ? { date: spellDay(dayIso) } : {}) }, dates, window: { before: earlier.length, after: 0 },
  });
  if (enc.encode(rendered.content).length > MAX_CONTENT_BYTES) return undefined;
  const conversation = conversationMeta({ session, speaker, turn, sessionDate: r.time.observed, day, dates });
  return { title: rendered.title, content: rendered.content, contentHash: await xxh3Hex(`${rendered.title}\n${rendered.content}`), conversation };
}
