/**
 * `POST /ingest/conversation` (issue 24 item 1; this project's addition to
 * SPEC §4.2): a session of dialogue turns becomes one chunk per turn. The
 * turn's own words (`Speaker: text`) are the chunk's title, so BM25F weighs
 * them as the title field; the content carries the session line and a window
 * of neighbouring turns, so an answer that only makes sense after the
 * question before it ("all you need is a gamepad…") is found by that
 * question's words. The speaker is a stored label (speaker-aware recall),
 * the session date is kept, and relative phrases ("yesterday", "last
 * Friday") are resolved against it and stored beside the text, never
 * rewriting it. Hygiene, duplicates, the screen and the write posture apply
 * per turn exactly as on `POST /ingest/memory`; the turns that are written
 * commit in one transaction.
 */
import { xxh3Hex } from "../core/content-hash.ts";
import { parseWith } from "../core/schema.ts";
import type { NewChunk } from "../core/types.ts";
import { GLOBAL_DOMAIN } from "../domains/domain-name.ts";
import { cleanMemoryEntry } from "../hygiene/clean-memory-entry.ts";
import { confidenceFor } from "../ingest/confidence.ts";
import type { WriteContext } from "../ingest/context.ts";
import { requireRegisteredDomain } from "../ingest/ingest-structured.ts";
import { ConversationBody, MAX_TURNS, type ConversationInput } from "./conversation-schema.ts";
import { writeChunks } from "../ingest/write-chunk.ts";
import { parseSessionDay, resolveRelativeDates, type ResolvedDate } from "./dates.ts";
import { conversationMeta, renderTurn, type TurnWindow } from "./turn-window.ts";

/** Most turns one request may carry (the memory door's batch limit). */
export { MAX_TURNS };

/**
 * Neighbouring turns a turn's content carries. Chosen on LoCoMo dev (docs/benchmarks.md "Conversations (LoCoMo)"; served
 * R@10 with abstention off, scripts/cv-recall.ts: 1,1 0.765, 2,1 0.784, 2,2 0.792): two turns before, two after.
 */
export const DEFAULT_TURN_WINDOW: Readonly<TurnWindow> = Object.freeze({ before: 2, after: 2 });

/** One turn's outcome, in turn order. */
export interface TurnResult {
  /** The chunk id (created or duplicate). */
  id?: number;
  status: "created" | "duplicate" | "skipped" | "proposed";
  /** The client's own turn id, echoed. */
  turn_id?: string;
  proposal_id?: number;
  flagged?: true;
  reason?: string;
}

/** The reply. */
export interface ConversationResult {
  session: string;
  domain: string;
  turns: TurnResult[];
  created: number;
  duplicate: number;
  skipped: number;
  proposed: number;
}

/** A turn after validation. */
interface Turn {
  speaker: string;
  text: string;
  turnId?: string;
}

/** Options (the turn window is varied by the tuning script; serving uses the default). */
export interface ConversationOptions {
  window?: TurnWindow;
  /** The audit log's identifier hasher: the session id is recorded as a salted hash (issue 35; src/audit/identifier-ref.ts). */
  auditRef?: (kind: string, value: string) => Promise<string>;
}

/** Ingests one conversation session. */
export async function ingestConversation(ctx: WriteContext, raw: ConversationInput, skipPatterns: readonly string[], o: ConversationOptions = {}): Promise<ConversationResult> {
  const b = parseWith(ConversationBody, raw);
  const session = b.session.date ? { id: b.session.id, date: b.session.date } : { id: b.session.id };
  const turns: Turn[] = b.turns.map((t) => (t.id !== undefined ? { speaker: t.speaker, text: t.text, turnId: t.id } : { speaker: t.speaker, text: t.text }));
  const domain = b.domain ?? GLOBAL_DOMAIN;
  await requireRegisteredDomain(ctx, domain);
  const window = o.window ?? DEFAULT_TURN_WINDOW;
  const day = session.date !== undefined ? parseSessionDay(session.date) : undefined;
  const results: TurnResult[] = new Array(turns.length);
  // Hygiene first: a skipped turn's words are stored nowhere, not even in a neighbour's window.
  const kept: { i: number; turn: Turn }[] = [];
  turns.forEach((t, i) => {
    const cleaned = cleanMemoryEntry(t.text, skipPatterns);
    if (!cleaned.kept) results[i] = withTurnId({ status: "skipped", reason: cleaned.reason }, t);
    else kept.push({ i, turn: { ...t, text: cleaned.text } });
  });
  const rendered = kept.map((k, j) => {
    const dates = day !== undefined ? resolveRelativeDates(k.turn.text, day) : [];
    const r = renderTurn(kept.map((x) => x.turn), j, { session, day, dates, window });
    return { ...k, ...r, index: k.i, dates };
  });
  // SPEC §1 write posture: agent capture, so the memory door's posture applies to every turn.
  if (ctx.review?.route("/ingest/memory") === "proposal") {
    for (const r of rendered) {
      // The proposal carries the chunk's identity hash and labels, so the approved turn is the turn the open door stores.
      const c = await chunkOf(r, session, day, domain);
      const p = await ctx.review.file({
        content: r.content, title: r.title, domain, origin: "agent", door: "/ingest/conversation", ingestKind: "memory", contentHash: c.contentHash, meta: c.meta,
      });
      results[r.i] = withTurnId({ status: "proposed", proposal_id: p.id }, r.turn);
    }
    return reply(session.id, domain, results);
  }
  const chunks: NewChunk[] = [];
  for (const r of rendered) chunks.push(await chunkOf(r, session, day, domain));
  // The append-only audit row names the session by its salted hash only: an erasure could not reach an id in clear.
  const sessionRef = o.auditRef ? { session_ref: await o.auditRef("session", session.id) } : {};
  const outs = chunks.length ? await writeChunks(ctx, chunks, undefined, "ingest_conversation", sessionRef) : [];
  outs.forEach((out, j) => {
    const res: TurnResult = { id: out.id, status: out.status };
    if (out.chunk.flagged) res.flagged = true;
    results[rendered[j].i] = withTurnId(res, rendered[j].turn);
  });
  return reply(session.id, domain, results);
}

async function chunkOf(
  r: { turn: Turn; title: string; content: string; dates: ResolvedDate[]; index: number },
  session: { id: string; date?: string }, day: number | undefined, domain: string,
): Promise<NewChunk> {
  const conversation = conversationMeta({
    session: session.id, speaker: r.turn.speaker, turn: r.index, sessionDate: session.date, day, turnId: r.turn.turnId, dates: r.dates,
  });
  return {
    // The hash covers the turn and its window: two turns that share a window are still two turns.
    title: r.title, content: r.content, domain, contentHash: await xxh3Hex(`${r.title}\n${r.content}`), source: "memory", origin: "agent",
    confidence: confidenceFor("memory", undefined), flagged: false, meta: { conversation },
  };
}

function withTurnId(r: TurnResult, t: Turn): TurnResult {
  return t.turnId !== undefined ? { ...r, turn_id: t.turnId } : r;
}

function reply(session: string, domain: string, turns: TurnResult[]): ConversationResult {
  const n = (s: TurnResult["status"]) => turns.filter((t) => t.status === s).length;
  return { session, domain, turns, created: n("created"), duplicate: n("duplicate"), skipped: n("skipped"), proposed: n("proposed") };
}
