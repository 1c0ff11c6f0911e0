/**
 * `cairn import chatgpt|claude <export…>` (docs/vault.md "Chat history"):
 * the chat-history importer over the conversation door. Progress on a TTY,
 * a line at most every two seconds off one; the summary on stdout; exit 1
 * when a conversation failed or could not be read.
 */
import { CHAT_FORMATS, importChats, type ImportSummary } from "../chats/import-chats.ts";
import { MemoryError } from "../core/errors.ts";
import type { Memory } from "../memory.ts";
import type { CliOutput } from "./progress.ts";

/** Options of `cairn import`. */
export interface ImportCliOptions {
  me?: string;
  assistantName?: string;
  includeTools?: boolean;
  domain?: string;
  json?: boolean;
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(n < 10 * 1024 * 1024 ? 1 : 0)} MB`;

/** The summary as one line. */
export function importLine(s: ImportSummary): string {
  const l = s.leftOut;
  return `import ${s.format}: ${s.conversations} conversations (${s.stored} stored, ${s.unchanged} unchanged, ${s.empty} empty), ` +
    `turns ${s.turns.created} created, ${s.turns.duplicate} already stored, ${s.turns.removed} replaced, ${s.turns.proposed} proposed, ` +
    `${s.turns.flagged} quarantined, ${s.turns.skipped} skipped; left out ${l.branch} off-branch, ${l.hidden} hidden or system, ` +
    `${l.reasoning} reasoning, ${l.tool} tool, ${l.empty} empty messages; ${s.unreadable.length} unreadable, ${s.failed.length} failed`;
}

/** Runs `cairn import`; true when something failed (exit code 1). */
export async function importCommand(memory: Memory, format: string, paths: string[], o: ImportCliOptions, io: CliOutput): Promise<boolean> {
  if (!(CHAT_FORMATS as readonly string[]).includes(format)) {
    throw new MemoryError("invalid_request", `Unknown export format "${format}"; use ${CHAT_FORMATS.join(" or ")}`);
  }
  if (!paths.length) throw new MemoryError("invalid_request", "Name the export: a conversations.json, its shards, their directory or the zip");
  let last = 0;
  let drawn = false;
  const s = await importChats((body, opts) => memory.ingestConversation(body, opts), paths, {
    format: format as ImportSummary["format"] & (typeof CHAT_FORMATS)[number], me: o.me, assistant: o.assistantName, includeTools: o.includeTools, domain: o.domain,
    onProgress: (p) => {
      const now = Date.now();
      if (now - last < (io.errIsTTY ? 100 : 2000)) return;
      last = now;
      const pct = p.totalBytes ? Math.min(100, Math.floor((p.bytes / p.totalBytes) * 100)) : 100;
      const line = `import: ${p.conversations} conversations, ${pct}% of ${mb(p.totalBytes)}`;
      if (io.errIsTTY) {
        io.err(`\r${line}\x1b[K`);
        drawn = true;
      } else io.err(`${line}\n`);
    },
  });
  if (drawn) io.err("\r\x1b[K");
  for (const u of s.unreadable) io.err(`unreadable: ${u.part} #${u.index}: ${u.reason}\n`);
  for (const f of s.failed) io.err(`failed: ${f.conversation} (${f.part}): ${f.error}\n`);
  const st = s.stopped;
  if (st) {
    io.err(`stopped: ${st.conversation} (${st.part}): ${st.error}; ${s.stored} conversations stored before it, each whole. ` +
      `Raise CAIRN_MAX_DOCS (now ${memory.config.maxDocs}) and run the import again: it goes on from this conversation.\n`);
  }
  io.out(o.json ? JSON.stringify(s, null, 2) : importLine(s));
  return s.failed.length > 0 || s.unreadable.length > 0 || st !== undefined;
}
