/**
 * How one turn of a conversation becomes a chunk's title and content
 * (issue 24 item 1): the title is the turn itself (`Speaker: text`, so BM25F
 * weighs its words as the title field), the content is the session line,
 * the window of neighbouring turns with the turn in its place, and the
 * resolved relative dates (`(yesterday: 7 May 2023)`), written beside the
 * text, which stays verbatim.
 */
import { spellDay, type ResolvedDate } from "./dates.ts";

/** Turns before and after a turn that its content carries. */
export interface TurnWindow {
  before: number;
  after: number;
}

const enc = new TextEncoder();
/** SPEC §2.1: a title is at most 500 bytes. */
export const TITLE_MAX = 500;

/** Cuts text to at most `max` UTF-8 bytes on a word boundary, marking the cut with `…`. */
export function clipBytes(text: string, max: number): string {
  if (enc.encode(text).length <= max) return text;
  let out = "";
  for (const word of text.split(/(\s+)/)) {
    if (enc.encode(`${out}${word}…`).length > max) break;
    out += word;
  }
  // A single overlong word: cut by characters.
  if (out.trim() === "") for (const ch of text) { if (enc.encode(`${out}${ch}…`).length > max) break; out += ch; }
  return `${out.trimEnd()}…`;
}

/** Renders turn `j` of `turns` (already cleaned) with its window. */
export function renderTurn(
  turns: readonly { speaker: string; text: string }[], j: number,
  o: { session: { id: string; date?: string; title?: string }; day?: number; dates: readonly ResolvedDate[]; window: TurnWindow },
): { title: string; content: string; index: number } {
  const line = (t: { speaker: string; text: string }) => `${t.speaker}: ${t.text}`;
  const own = line(turns[j]);
  // The session line: its id, date and (an imported chat's) title, so "the chat about sourdough" finds its turns.
  const parts = [[`Session ${o.session.id}`, o.session.date, o.session.title].filter((x) => x !== undefined).join(" · ")];
  for (let k = Math.max(0, j - o.window.before); k <= Math.min(turns.length - 1, j + o.window.after); k++) parts.push(line(turns[k]));
  if (o.dates.length) parts.push(o.dates.map((d) => `(${d.text}: ${d.from === d.to ? spellDay(d.from) : `${spellDay(d.from)} to ${spellDay(d.to)}`})`).join(" "));
  return { title: clipBytes(own.replace(/\s+/g, " ").trim(), TITLE_MAX), content: parts.join("\n"), index: j };
}

/** A turn's `meta.conversation` labels (speaker-aware and date-aware recall read them: src/recall/actor-labels.ts). */
export function conversationMeta(o: {
  session: string; speaker: string; turn: number; sessionDate?: string; day?: number; turnId?: string; dates: readonly ResolvedDate[];
  sessionTitle?: string; time?: string; source?: string;
}): Record<string, unknown> {
  const conversation: Record<string, unknown> = { session: o.session, speaker: o.speaker, turn: o.turn };
  if (o.sessionDate !== undefined) conversation.session_date = o.sessionDate;
  if (o.sessionTitle !== undefined) conversation.session_title = o.sessionTitle;
  if (o.time !== undefined) conversation.time = o.time;
  if (o.source !== undefined) conversation.source = o.source;
  if (o.day !== undefined) conversation.day = new Date(o.day).toISOString().slice(0, 10);
  if (o.turnId !== undefined) conversation.turn_id = o.turnId;
  if (o.dates.length) conversation.dates = o.dates.map((d) => ({ text: d.text, from: d.from, to: d.to, spelled: spellDay(d.from) }));
  return conversation;
}
