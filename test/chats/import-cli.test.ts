/**
 * `cairn import` on the command line: the summary line on stdout, progress
 * lines on stderr off a TTY, exit 0 on success, 1 when conversations could
 * not be read (a Claude export imported as ChatGPT), 2 on a usage error;
 * `--help` shows one example per kind of export. One run is a real process.
 */
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { cairn, cairnInProcess } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/memory.ts";

const FX = resolve(new URL("../../fixtures/chats", import.meta.url).pathname);
const env = () => ({ CAIRN_DB_PATH: join(tempDir(), "cairn.db") });

describe("cairn import", () => {
  it("imports a ChatGPT zip as a process: one summary line, progress off a TTY, exit 0; again stores nothing", async () => {
    const e = env();
    const r = await cairn(["import", "chatgpt", join(FX, "chatgpt-export.zip"), "--me", "Ana"], e);
    expect(r.stderr).toMatch(/^import: \d+ conversations, \d+% of [\d.]+ MB$/m);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(/^import chatgpt: 4 conversations \(4 stored, 0 unchanged, 0 empty\), turns 12 created, 0 already stored, 0 replaced, 0 proposed, [1-9]\d* quarantined, 0 skipped; left out 2 off-branch, 1 hidden or system, 1 reasoning, 2 tool, 1 empty messages; 0 unreadable, 0 failed$/);
    const again = await cairnInProcess(["import", "chatgpt", join(FX, "chatgpt", "conversations.json"), "--me", "Ana"], e);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("(0 stored, 4 unchanged, 0 empty), turns 0 created, 12 already stored, 0 replaced");
    const q = await cairnInProcess(["query", "sourdough starter nail polish"], e);
    expect(q.stdout).toContain("Ana: My sourdough starter");
  }, 240_000);

  it("exits 1 when the export's conversations are not of the named format, and 2 on usage errors", async () => {
    const e = env();
    const wrong = await cairnInProcess(["import", "chatgpt", join(FX, "claude", "conversations.json")], e);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/unreadable: .*conversations\.json #0: not a chatgpt conversation/);
    expect((await cairnInProcess(["import", "gemini", join(FX, "claude", "conversations.json")], e)).code).toBe(2);
    expect((await cairnInProcess(["import", "claude", join(FX, "nope.json")], e)).code).toBe(2);
    const notExport = await cairnInProcess(["import", "claude", join(FX, "..", "bm-vault", "questions.json")], e);
    expect(notExport.code).toBe(1);
    expect(notExport.stderr).toContain("not_chat_export");
  }, 120_000);

  it("--help shows an example per kind of export", async () => {
    const h = await cairnInProcess(["import", "--help"], {});
    expect(h.stdout).toContain("cairn import chatgpt ~/Downloads/chatgpt-export.zip --me Ana");
    expect(h.stdout).toContain("conversations-000.json");
    expect(h.stdout).toContain("--assistant-name");
  });
});
