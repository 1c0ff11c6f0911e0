/**
 * Claude's `conversations.json` (one element): `{uuid, name, created_at,
 * chat_messages: [{uuid, sender, text, content?, created_at, attachments,
 * files}]}`. Messages are in order; the export is flat (an edited or retried
 * message appears as consecutive messages of one sender, and only the shown
 * branch's replies are present), so every message is kept in order, as
 * Basic Memory's importer does. Text: the `content` blocks when present
 * (`text` blocks; `thinking` left out; `tool_use` / `tool_result` with
 * `--include-tools`), else `text`. Attachments: the file name and the text
 * Claude extracted from it (`extracted_content`); `files`: the file name.
 * Basic Memory keeps the same text but drops the message ids, and joins
 * blocks without a break.
 */
import { type ChatConversation, type ChatTurn, clip, isoTime, noneLeftOut, obj, type ReadOptions, str } from "./chat.ts";

/** Reads one conversation; undefined when the element is not a Claude conversation. */
export function readClaude(raw: unknown, o: ReadOptions): ChatConversation | undefined {
  const c = obj(raw);
  const id = str(c?.uuid);
  if (!c || !id || !Array.isArray(c.chat_messages)) return undefined;
  const leftOut = noneLeftOut();
  const turns: ChatTurn[] = [];
  c.chat_messages.forEach((raw, i) => {
    const m = obj(raw);
    if (!m) return;
    const sender = str(m.sender);
    const role = sender === "human" || sender === "user" ? "user" : sender === "assistant" ? "assistant" : undefined;
    if (!role) {
      leftOut.hidden++;
      return;
    }
    const parts: string[] = [];
    const tools: string[] = [];
    const blocks = Array.isArray(m.content) ? m.content.map(obj).filter((b) => b !== undefined) : [];
    if (blocks.length) {
      for (const b of blocks) {
        const type = str(b.type) ?? "text";
        if (type === "text") {
          if (str(b.text)?.trim()) parts.push(str(b.text)!);
        } else if (type === "thinking" || type === "redacted_thinking") leftOut.reasoning++;
        else if (type === "tool_use" || type === "tool_result") {
          if (!o.includeTools) leftOut.tool++;
          else tools.push(toolText(b, type));
        } else if (str(b.text)?.trim()) parts.push(str(b.text)!);
      }
    } else if (str(m.text)?.trim()) parts.push(str(m.text)!);
    for (const a of Array.isArray(m.attachments) ? m.attachments : []) {
      const att = obj(a);
      const name = str(att?.file_name);
      if (!name) continue;
      const extracted = str(att?.extracted_content);
      parts.push(extracted?.trim() ? `[attached: ${name}]\n${clip(extracted, o.maxMessageChars)}` : `[attached: ${name}]`);
    }
    for (const f of [...(Array.isArray(m.files) ? m.files : []), ...(Array.isArray(m.files_v2) ? m.files_v2 : [])]) {
      const name = str(obj(f)?.file_name);
      if (name && !parts.some((p) => p.startsWith(`[attached: ${name}]`))) parts.push(`[file: ${name}]`);
    }
    const text = [...parts, ...tools].join("\n\n").trim();
    if (!text) {
      leftOut.empty++;
      return;
    }
    const turn: ChatTurn = { id: str(m.uuid) ?? `${id}#${i}`, role, text: clip(text, o.maxMessageChars) };
    const time = isoTime(m.created_at);
    if (time) turn.time = time;
    turns.push(turn);
  });
  const out: ChatConversation = { source: "claude", id, turns, leftOut };
  const title = str(c.name)?.trim();
  if (title) out.title = title;
  const created = isoTime(c.created_at) ?? turns.find((t) => t.time)?.time;
  if (created) out.created = created;
  return out;
}

function toolText(b: Record<string, unknown>, type: string): string {
  const name = str(b.name) ?? "tool";
  if (type === "tool_use") return `[tool ${name}] ${clip(JSON.stringify(b.input ?? {}), 4000)}`;
  const content = Array.isArray(b.content) ? b.content.map((x) => str(obj(x)?.text) ?? "").join("\n") : str(b.content) ?? "";
  return `[${name} result] ${clip(content, 20_000)}`;
}
