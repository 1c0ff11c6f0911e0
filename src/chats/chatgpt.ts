/**
 * ChatGPT's `conversations.json` (one element): a `mapping` tree of nodes
 * (`{id, parent, children, message}`) whose active branch ends at
 * `current_node`. The turns are the messages on that branch, root first:
 * what the user saw. Basic Memory's importer reads every node of every
 * branch in tree order, `text` and `code` content only, and loses which
 * branch was shown; this keeps the shown branch and counts the rest.
 * Messages: `author.role` (`user`, `assistant`, `system`, `tool`),
 * `content.content_type` (`text` and `multimodal_text` parts, `code`,
 * `execution_output`, `tether_quote`, `thoughts`, `reasoning_recap`, …),
 * `create_time` (epoch seconds), `recipient` (`all`, or a tool for a call),
 * `metadata.is_visually_hidden_from_conversation`, `metadata.attachments`.
 */
import { type ChatConversation, type ChatTurn, clip, isoTime, noneLeftOut, obj, type ReadOptions, str } from "./chat.ts";

const REASONING = new Set(["thoughts", "reasoning_recap"]);
const CONTEXT = new Set(["user_editable_context", "model_editable_context"]);

/** Reads one conversation; undefined when the element is not a ChatGPT conversation. */
export function readChatGpt(raw: unknown, o: ReadOptions): ChatConversation | undefined {
  const c = obj(raw);
  const mapping = obj(c?.mapping);
  if (!c || !mapping) return undefined;
  const id = str(c.conversation_id) ?? str(c.id);
  if (!id) return undefined;
  const leftOut = noneLeftOut();
  const branch = activeBranch(mapping, str(c.current_node));
  const onBranch = new Set(branch);
  for (const [key, node] of Object.entries(mapping)) if (!onBranch.has(key) && obj(obj(node)?.message)) leftOut.branch++;
  const turns: ChatTurn[] = [];
  for (const key of branch) {
    const m = obj(obj(mapping[key])?.message);
    if (!m) continue;
    const role = str(obj(m.author)?.role);
    const content = obj(m.content);
    const type = str(content?.content_type) ?? "text";
    const meta = obj(m.metadata) ?? {};
    if (meta.is_visually_hidden_from_conversation === true || role === "system" || CONTEXT.has(type)) {
      leftOut.hidden++;
      continue;
    }
    if (REASONING.has(type)) {
      leftOut.reasoning++;
      continue;
    }
    const recipient = str(m.recipient) ?? "all";
    const toolish = role === "tool" || (role === "assistant" && recipient !== "all");
    if (toolish && !o.includeTools) {
      leftOut.tool++;
      continue;
    }
    let text = textOf(content, type).trim();
    const attached = attachments(meta);
    if (attached) text = text ? `${text}\n${attached}` : attached;
    if (!text) {
      leftOut.empty++;
      continue;
    }
    const turn: ChatTurn = { id: str(m.id) ?? key, role: role === "user" ? "user" : toolish ? "tool" : "assistant", text: clip(text, o.maxMessageChars) };
    if (role === "tool") turn.tool = str(obj(m.author)?.name) ?? "tool";
    else if (toolish) {
      turn.tool = recipient;
      turn.text = `[to ${recipient}] ${turn.text}`;
    }
    const time = isoTime(m.create_time);
    if (time) turn.time = time;
    turns.push(turn);
  }
  const out: ChatConversation = { source: "chatgpt", id, turns, leftOut };
  const title = str(c.title)?.trim();
  if (title) out.title = title;
  const created = isoTime(c.create_time) ?? isoTime(c.update_time) ?? turns.find((t) => t.time)?.time;
  if (created) out.created = created;
  return out;
}

/**
 * The node keys from the root to `current_node` (following `parent`); without a usable `current_node`, the branch
 * that follows each node's last child from the root (the newest regeneration). Bounded by the mapping's size, so a
 * cycle in a damaged export ends the walk.
 */
export function activeBranch(mapping: Record<string, unknown>, current: string | undefined): string[] {
  const limit = Object.keys(mapping).length;
  const path: string[] = [];
  const seen = new Set<string>();
  if (current !== undefined && mapping[current] !== undefined) {
    for (let k: string | undefined = current; k !== undefined && mapping[k] !== undefined && !seen.has(k) && path.length < limit;) {
      seen.add(k);
      path.push(k);
      k = str(obj(mapping[k])?.parent);
    }
    return path.reverse();
  }
  const root = Object.keys(mapping).find((k) => str(obj(mapping[k])?.parent) === undefined || mapping[str(obj(mapping[k])?.parent)!] === undefined);
  for (let k: string | undefined = root; k !== undefined && mapping[k] !== undefined && !seen.has(k) && path.length < limit;) {
    seen.add(k);
    path.push(k);
    const children = obj(mapping[k])?.children;
    k = Array.isArray(children) && children.length ? str(children[children.length - 1]) : undefined;
  }
  return path;
}

function textOf(content: Record<string, unknown> | undefined, type: string): string {
  if (!content) return "";
  if (Array.isArray(content.parts)) {
    return content.parts.map((p) => {
      if (typeof p === "string") return p;
      const part = obj(p);
      if (!part) return "";
      const t = str(part.text) ?? str(obj(part.audio_transcription)?.text);
      if (t) return t;
      const kind = str(part.content_type) ?? "attachment";
      return kind.includes("image") ? "[image]" : kind.includes("audio") ? "[audio]" : kind.includes("video") ? "[video]" : `[${kind}]`;
    }).filter((x) => x !== "").join("\n");
  }
  if (type === "code") return str(content.text) ? `\`\`\`${str(content.language) ?? ""}\n${str(content.text)}\n\`\`\`` : "";
  const quoted = [str(content.title), str(content.text) ?? str(content.result) ?? str(content.summary)].filter((x) => x);
  return quoted.join("\n");
}

function attachments(meta: Record<string, unknown>): string {
  const list = Array.isArray(meta.attachments) ? meta.attachments : [];
  return list.map((a) => str(obj(a)?.name)).filter((n): n is string => n !== undefined && n !== "").map((n) => `[attached: ${n}]`).join("\n");
}
