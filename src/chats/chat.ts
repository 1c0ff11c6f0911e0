/**
 * One conversation of a chat export, read into plain turns (the converters
 * `chatgpt.ts` and `claude.ts` produce it; `import-chats.ts` stores it
 * through the conversation door). Pure data, no I/O.
 */

/** Who spoke a turn, as the export says. */
export type ChatRole = "user" | "assistant" | "tool";

/** One turn, in conversation order. */
export interface ChatTurn {
  /** The export's message id (kept as the turn id). */
  id: string;
  role: ChatRole;
  /** A tool's name (ChatGPT `author.name`, Claude `tool_use.name`), when `role` is `tool`. */
  tool?: string;
  text: string;
  /** ISO-8601 instant. */
  time?: string;
}

/** Why messages of a conversation were left out (counts). */
export interface LeftOut {
  /** Off the active branch (ChatGPT: nodes not on the path to `current_node`). */
  branch: number;
  /** Marked hidden by the export, or system prompts and context. */
  hidden: number;
  /** Model reasoning (`thoughts`, `reasoning_recap`, Claude `thinking`). */
  reasoning: number;
  /** Tool calls and tool output (kept with `--include-tools`). */
  tool: number;
  /** No text at all. */
  empty: number;
}

/** A conversation read from an export. */
export interface ChatConversation {
  source: "chatgpt" | "claude";
  /** The export's conversation id (ChatGPT `conversation_id`/`id`, Claude `uuid`). */
  id: string;
  title?: string;
  /** ISO-8601 instant the conversation started. */
  created?: string;
  turns: ChatTurn[];
  leftOut: LeftOut;
}

/** What the converters keep. */
export interface ReadOptions {
  /** Keep tool calls and tool output as turns. */
  includeTools: boolean;
  /** Longest text kept of one message or attachment, in characters (the rest is cut with a marker). */
  maxMessageChars: number;
}

/** An empty tally. */
export const noneLeftOut = (): LeftOut => ({ branch: 0, hidden: 0, reasoning: 0, tool: 0, empty: 0 });

/** Epoch seconds (ChatGPT) or an ISO string (Claude) as an ISO-8601 instant; undefined when absent or invalid. */
export function isoTime(v: unknown): string | undefined {
  if (typeof v === "number" && Number.isFinite(v) && v > 0 && v < 1e11) return new Date(Math.round(v * 1000)).toISOString();
  if (typeof v === "string" && v.length <= 64) {
    const ms = Date.parse(v);
    if (!Number.isNaN(ms)) return new Date(ms).toISOString();
  }
  return undefined;
}

/**
 * `at`, or one less when `at` falls between the two halves of a surrogate pair (an emoji, a rarer CJK character): a
 * cut there would leave a lone surrogate, which the text-field rule refuses (docs/limits.md "Text fields").
 */
export function pairSafe(text: string, at: number): number {
  if (at <= 0 || at >= text.length) return at;
  const hi = text.charCodeAt(at - 1);
  const lo = text.charCodeAt(at);
  return hi >= 0xd800 && hi <= 0xdbff && lo >= 0xdc00 && lo <= 0xdfff ? at - 1 : at;
}

/** Cuts `text` to `max` characters (never inside a surrogate pair) with a marker saying how much was left out. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = pairSafe(text, max);
  return `${text.slice(0, cut)}\n[… ${text.length - cut} more characters not imported]`;
}

/** A string field, or undefined. */
export const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

/** An object, or undefined. */
export const obj = (v: unknown): Record<string, unknown> | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
