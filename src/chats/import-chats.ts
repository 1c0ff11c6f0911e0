/**
 * `cairn import chatgpt|claude <export>`: stores each conversation of a chat
 * export through the conversation door (`POST /ingest/conversation`'s code
 * path): one session per conversation (`chatgpt:<id>` / `claude:<uuid>`),
 * dated and titled from the export, one turn per message with its speaker
 * (`--me`, `--assistant-name`), its time and its message id. The export is
 * streamed conversation by conversation (`json-array-stream.ts`), so memory
 * stays bounded whatever its size. Every turn passes the door's hygiene, the
 * injection screen (quarantine) and the write posture.
 *
 * Idempotent: a conversation already imported as it is stores nothing; one
 * that grew or changed branch stores its new turns and, in the same
 * transaction, removes the turns the export no longer holds as they were
 * (a turn's chunk carries its neighbours, so the old tail's windows change).
 */
import type { ConversationInput } from "../conversation/conversation-schema.ts";
import type { ConversationOptions, ConversationResult } from "../conversation/ingest-conversation.ts";
import { clipBytes } from "../conversation/turn-window.ts";
import { isMemoryError, MemoryError } from "../core/errors.ts";
import { findTextViolation, textRuleError } from "../core/text-rule.ts";
import { type ChatConversation, type ChatTurn, type LeftOut, noneLeftOut, pairSafe, type ReadOptions } from "./chat.ts";
import { readChatGpt } from "./chatgpt.ts";
import { readClaude } from "./claude.ts";
import { exportParts } from "./export-files.ts";
import { type ArrayStreamLimits, streamJsonArray } from "./json-array-stream.ts";

/** The conversation door (`memory.ingestConversation`). */
export type ConversationPort = (body: ConversationInput, opts: ConversationOptions) => Promise<ConversationResult>;

/** The export formats read. */
export const CHAT_FORMATS = ["chatgpt", "claude"] as const;

/** Options of one import. */
export interface ImportOptions {
  format: (typeof CHAT_FORMATS)[number];
  /** The user's name as a speaker (default `User`). */
  me?: string;
  /** The assistant's name as a speaker (default `ChatGPT` / `Claude`). */
  assistant?: string;
  /** Keep tool calls and tool output as turns. */
  includeTools?: boolean;
  domain?: string;
  /** After each conversation. */
  onProgress?: (p: ImportProgress) => void;
  limits?: Partial<ArrayStreamLimits>;
}

/** Where an import is. */
export interface ImportProgress {
  part: string;
  conversations: number;
  /** Bytes read of all parts, and their total (for a zip: uncompressed). */
  bytes: number;
  totalBytes: number;
}

/** What an import did. */
export interface ImportSummary {
  format: string;
  parts: number;
  conversations: number;
  /** Conversations that stored something new (first import, or grown / changed since). */
  stored: number;
  /** Conversations already imported as they are. */
  unchanged: number;
  /** Conversations with no turn to store (every message empty, hidden or left out). */
  empty: number;
  turns: { created: number; duplicate: number; skipped: number; proposed: number; flagged: number; removed: number };
  leftOut: LeftOut;
  /** Elements that are not conversations of this format, or too large or malformed to read. */
  unreadable: { part: string; index: number; reason: string }[];
  failed: { part: string; conversation: string; error: string }[];
  /**
   * The store filled up (`capacity_exceeded`, SPEC §8): the import stopped at this conversation, which was not
   * stored (each conversation is one transaction); raising `CAIRN_MAX_DOCS` and importing again goes on from it.
   */
  stopped?: { part: string; conversation: string; error: string };
}

const MAX_TURN_CHARS = 40_000;
const MAX_MESSAGE_CHARS = 1_000_000;

/**
 * Cuts a long message into turns of at most `MAX_TURN_CHARS` characters, at a paragraph, line or word boundary: a
 * turn's chunk carries four neighbours, and a chunk stays under the 1,000,000-byte content limit (SPEC §8).
 */
export function splitLong(text: string, max = MAX_TURN_CHARS): string[] {
  const out: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    let cut = window.lastIndexOf("\n\n");
    if (cut < max / 2) cut = window.lastIndexOf("\n");
    if (cut < max / 2) cut = window.lastIndexOf(" ");
    if (cut < max / 2) cut = pairSafe(rest, max);
    out.push(rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
  }
  if (rest) out.push(rest);
  return out;
}

function speakerOf(t: ChatTurn, me: string, assistant: string): string {
  if (t.role === "user") return me;
  if (t.role === "assistant") return assistant;
  return `${assistant} tool ${t.tool ?? ""}`.trim();
}

/** The conversation door's body for one conversation; undefined when it has no turn. */
export function conversationBody(c: ChatConversation, o: { me: string; assistant: string; domain?: string }): ConversationInput | undefined {
  const turns: ConversationInput["turns"] = [];
  for (const t of c.turns) {
    const speaker = clipBytes(speakerOf(t, o.me, o.assistant), 200);
    splitLong(t.text).forEach((text, k) => {
      const turn: ConversationInput["turns"][number] = { speaker, text, id: k === 0 ? t.id : `${t.id}#${k + 1}` };
      if (t.time) turn.time = t.time;
      turns.push(turn);
    });
  }
  if (!turns.length) return undefined;
  const session: ConversationInput["session"] = { id: `${c.source}:${c.id}`.slice(0, 200) };
  if (c.created) session.date = sessionDate(c.created);
  if (c.title) session.title = clipBytes(c.title.replace(/\s+/g, " "), 500);
  const body: ConversationInput = { session, turns };
  if (o.domain) body.domain = o.domain;
  return body;
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];
/** `5 March 2024, 14:02 UTC`: spelled as questions ask (recall matches it), and read back as a day by the door. */
function sessionDate(iso: string): string {
  const d = new Date(iso);
  const hm = iso.slice(11, 16);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}, ${hm} UTC`;
}

/**
 * The text-field rule (src/core/text-rule.ts) over one conversation's body, as the HTTP door applies it: a NUL or a
 * lone surrogate (JSON allows `\u0000` and `\ud800`) refuses the conversation naming the field and the export's
 * message id. Nothing is stripped: SQLite would store U+FFFD for a lone surrogate, silently changing the text and
 * its hash, and the next import of the same export would then see a changed conversation.
 */
function requireCleanTurns(body: ConversationInput): void {
  const v = findTextViolation(body);
  if (v === undefined) return;
  const turn = /^turns\[(\d+)\]/.exec(v.field);
  const id = turn ? body.turns[Number(turn[1])]?.id : undefined;
  const e = textRuleError(v);
  if (id === undefined) throw e;
  throw new MemoryError(e.code, `message ${id}: ${e.message}`, e.details);
}

/** Imports every conversation of the export at `paths`. */
export async function importChats(store: ConversationPort, paths: readonly string[], o: ImportOptions): Promise<ImportSummary> {
  const me = (o.me ?? "User").trim() || "User";
  const assistant = (o.assistant ?? (o.format === "chatgpt" ? "ChatGPT" : "Claude")).trim() || "Assistant";
  const read = o.format === "chatgpt" ? readChatGpt : readClaude;
  const readOpts: ReadOptions = { includeTools: o.includeTools === true, maxMessageChars: MAX_MESSAGE_CHARS };
  const { parts, close } = await exportParts(paths);
  const s: ImportSummary = {
    format: o.format, parts: parts.length, conversations: 0, stored: 0, unchanged: 0, empty: 0,
    turns: { created: 0, duplicate: 0, skipped: 0, proposed: 0, flagged: 0, removed: 0 }, leftOut: noneLeftOut(), unreadable: [], failed: [],
  };
  const totalBytes = parts.reduce((n, p) => n + p.bytes, 0);
  let before = 0;
  const seen = new Set<string>();
  try {
    reading: for (const part of parts) {
      let index = 0;
      let done = 0;
      for await (const el of streamJsonArray(part.open(), o.limits)) {
        const at = index++;
        done += el.bytes;
        if (!el.ok) {
          s.unreadable.push({ part: part.name, index: at, reason: el.reason });
          continue;
        }
        const c = read(el.value, readOpts);
        if (!c) {
          s.unreadable.push({ part: part.name, index: at, reason: `not a ${o.format} conversation` });
          continue;
        }
        // A conversation id twice in one export (never in a real one): the first is kept, so re-importing is stable.
        if (seen.has(c.id)) {
          s.unreadable.push({ part: part.name, index: at, reason: `conversation ${c.id} appears again` });
          continue;
        }
        seen.add(c.id);
        s.conversations++;
        for (const k of Object.keys(s.leftOut) as (keyof LeftOut)[]) s.leftOut[k] += c.leftOut[k];
        const body = conversationBody(c, { me, assistant, domain: o.domain });
        if (!body) {
          s.empty++;
        } else {
          try {
            requireCleanTurns(body);
            const r = await store(body, { replaceSession: { source: o.format } });
            s.turns.created += r.created;
            s.turns.duplicate += r.duplicate;
            s.turns.skipped += r.skipped;
            s.turns.proposed += r.proposed;
            s.turns.removed += r.removed ?? 0;
            s.turns.flagged += r.turns.filter((t) => t.flagged).length;
            if (r.created || r.proposed || r.removed) s.stored++;
            else s.unchanged++;
          } catch (e) {
            // A full store refuses every conversation after this one too: stop, and say where (the summary stands).
            if (isMemoryError(e) && e.code === "capacity_exceeded") {
              s.stopped = { part: part.name, conversation: `${c.source}:${c.id}`, error: `${e.code}: ${e.message}` };
              // The counts cover the conversations taken before the stop; this one is taken by the next run.
              s.conversations--;
              for (const k of Object.keys(s.leftOut) as (keyof LeftOut)[]) s.leftOut[k] -= c.leftOut[k];
              break reading;
            }
            // One conversation the door refuses (e.g. `INJECTION_POLICY=reject`) is reported; the rest go on.
            if (!isMemoryError(e) || (e.status ?? 400) >= 500) throw e;
            s.failed.push({ part: part.name, conversation: `${c.source}:${c.id}`, error: `${e.code}: ${e.message}` });
          }
        }
        o.onProgress?.({ part: part.name, conversations: s.conversations, bytes: before + Math.min(done, part.bytes), totalBytes });
      }
      before += part.bytes;
    }
  } finally {
    await close();
  }
  return s;
}
