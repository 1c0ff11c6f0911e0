/**
 * Writes a synthetic ChatGPT export (`conversations.json`) of about `--mb`
 * megabytes for the import bench (bench/chat-import.ts): conversations of 2
 * to 400 messages (one in fifty of 2,000), regenerated answers (branches),
 * hidden system messages, tool calls and their output, messages of 50 to
 * 6,000 characters of generated words. Deterministic (seeded); written as a
 * stream, never held whole. Not committed: it is generated where it is used.
 *
 *   npx tsx scripts/gen-chat-export.ts --mb 100 --out /tmp/chatgpt-100mb/conversations.json [--claude]
 */
import { createWriteStream, mkdirSync } from "node:fs";
import { dirname } from "node:path";

const args = process.argv.slice(2);
const opt = (n: string, d: string) => (args.includes(n) ? args[args.indexOf(n) + 1] : d);
const MB = Number(opt("--mb", "100"));
const OUT = opt("--out", "/tmp/chatgpt-export/conversations.json");
const CLAUDE = args.includes("--claude");

let seed = 12345;
// mulberry32: a full-period 32-bit generator (integer arithmetic, so no precision loss)
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(a: readonly T[]) => a[Math.floor(rand() * a.length)];
const SYL = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "ve", "do", "pa", "gu", "shi", "ber", "lin", "dor", "fen", "mar", "tol", "quin", "zer"];
const VOCAB = Array.from({ length: 4000 }, () => Array.from({ length: 2 + Math.floor(rand() * 3) }, () => pick(SYL)).join(""));
const text = (chars: number) => {
  const out: string[] = [];
  let n = 0;
  while (n < chars) {
    const w = pick(VOCAB);
    out.push(w);
    n += w.length + 1;
    if (rand() < 0.08) out.push(rand() < 0.5 ? "." : ",\n");
  }
  return out.join(" ");
};
const len = () => (rand() < 0.7 ? 50 + Math.floor(rand() * 600) : 600 + Math.floor(rand() * 5400));
const uuid = () => "xxxxxxxx-xxxx-4xxx-8xxx-xxxxxxxxxxxx".replace(/x/g, () => Math.floor(rand() * 16).toString(16));

function chatgpt(t0: number) {
  const n = rand() < 0.02 ? 2000 : 2 + Math.floor(rand() * 60) * (rand() < 0.2 ? 6 : 1);
  const mapping: Record<string, unknown> = {};
  const root = uuid();
  mapping[root] = { id: root, message: null, parent: null, children: [] as string[] };
  let parent = root;
  let t = t0;
  const link = (id: string, message: unknown) => {
    mapping[id] = { id, message, parent, children: [] };
    (mapping[parent] as { children: string[] }).children.push(id);
  };
  const msg = (id: string, role: string, content: unknown, extra: Record<string, unknown> = {}) =>
    ({ id, author: { role, name: extra.name ?? null, metadata: {} }, create_time: (t += 30 + rand() * 600), update_time: null, content, status: "finished_successfully", end_turn: null, weight: 1, metadata: extra.metadata ?? {}, recipient: extra.recipient ?? "all" });
  const sys = uuid();
  link(sys, msg(sys, "system", { content_type: "text", parts: [""] }, { metadata: { is_visually_hidden_from_conversation: true } }));
  parent = sys;
  for (let i = 0; i < n; i++) {
    const role = i % 2 === 0 ? "user" : "assistant";
    if (role === "assistant" && rand() < 0.1) { // a regenerated answer left on a side branch
      const alt = uuid();
      link(alt, msg(alt, "assistant", { content_type: "text", parts: [text(len())] }));
    }
    if (role === "assistant" && rand() < 0.05) { // a tool call and its output
      const call = uuid();
      link(call, msg(call, "assistant", { content_type: "code", language: "python", text: text(120) }, { recipient: "python" }));
      parent = call;
      const outId = uuid();
      link(outId, msg(outId, "tool", { content_type: "execution_output", text: text(200) }, { name: "python" }));
      parent = outId;
    }
    const id = uuid();
    link(id, msg(id, role, { content_type: "text", parts: [text(len())] }));
    parent = id;
  }
  const id = uuid();
  return { title: text(30).replace(/[.,\n]/g, "").trim(), create_time: t0, update_time: t, mapping, moderation_results: [], current_node: parent, conversation_id: id, id };
}

function claude(t0: number) {
  const n = 2 + Math.floor(rand() * 60);
  let t = t0;
  const at = () => new Date((t += 30_000 + rand() * 600_000)).toISOString();
  return {
    uuid: uuid(), name: text(30).replace(/[.,\n]/g, "").trim(), created_at: new Date(t0).toISOString(), updated_at: new Date(t0).toISOString(),
    chat_messages: Array.from({ length: n }, (_, i) => {
      const body = text(len());
      return { uuid: uuid(), sender: i % 2 ? "assistant" : "human", text: body, content: [{ type: "text", text: body }], created_at: at(), updated_at: at(), attachments: [], files: [] };
    }),
  };
}

mkdirSync(dirname(OUT), { recursive: true });
const out = createWriteStream(OUT);
const write = (s: string) => new Promise<void>((ok) => (out.write(s) ? ok() : out.once("drain", ok)));
let bytes = 1;
let count = 0;
await write("[");
const start = Date.parse("2023-01-01T00:00:00Z");
while (bytes < MB * 1024 * 1024) {
  const c = CLAUDE ? claude(start + count * 3_600_000) : chatgpt(start / 1000 + count * 3600);
  const s = (count ? "," : "") + JSON.stringify(c);
  bytes += Buffer.byteLength(s);
  count++;
  await write(s);
}
await write("]");
await new Promise<void>((ok) => out.end(ok));
console.log(`${OUT}: ${count} conversations, ${(bytes / 1024 / 1024).toFixed(1)} MB`);
