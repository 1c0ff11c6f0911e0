/**
 * Every code block of the README's "Quick start" runs as a newcomer would run it, in order, against one temp store:
 * a real `cairn serve` on a loopback port (the blocks' `localhost:8765` rewritten to it), the shell lines through
 * `sh` from the repository root (so `fixtures/vault` and `npx cairn` resolve as in a checkout), the MCP client
 * configuration through the official MCP SDK client over stdio with the block's own command and arguments, and the
 * TypeScript snippets with tsx in a scratch project whose `cairn` imports resolve to this checkout's entries.
 *
 * Output shown in a block is checked: `# …` lines after a shell command are its expected stdout (`…` stands for
 * anything; a line indented `#   ` continues the one before), and `console.log(…); // x` must print `x`. Every shell
 * command must show its output, so a command that "succeeds" with an error body cannot pass unnoticed.
 */
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../_helpers/memory.ts";

const root = resolve(new URL("../..", import.meta.url).pathname);

interface Block { lang: string; body: string }

/** The fenced blocks between `## Quick start` and the next `## ` heading, and that section's prose. */
function quickStart(readme: string): { blocks: Block[]; prose: string } {
  const at = readme.indexOf("\n## Quick start\n");
  if (at < 0) throw new Error("README.md has no '## Quick start' section");
  const rest = readme.slice(at + 1);
  const next = rest.indexOf("\n## ", 1);
  const section = next < 0 ? rest : rest.slice(0, next);
  const blocks = [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((m) => ({ lang: m[1]!, body: m[2]! }));
  return { blocks, prose: section.replace(/^```\w*\n[\s\S]*?^```$/gm, "") };
}

interface ShellStep { command: string; expected: string[] }

/** A shell block as commands (backslash continuations joined) and the `# ` output lines shown after each. */
function shellSteps(body: string): ShellStep[] {
  const steps: ShellStep[] = [];
  let pending = "";
  for (const line of body.split("\n")) {
    if (pending) {
      pending += `\n${line}`;
      if (!line.endsWith("\\")) {
        steps.push({ command: pending, expected: [] });
        pending = "";
      }
    } else if (line.startsWith("#   ") && steps.at(-1)?.expected.length) {
      const e = steps.at(-1)!.expected;
      e[e.length - 1] += line.slice(1).trim();
    } else if (line.startsWith("# ")) {
      if (!steps.length) throw new Error(`output shown before any command: ${line}`);
      steps.at(-1)!.expected.push(line.slice(2));
    } else if (line.trim()) {
      if (line.endsWith("\\")) pending = line;
      else steps.push({ command: line, expected: [] });
    }
  }
  return steps;
}

/** Checks `out` shows each expected line in order; `…` matches anything, otherwise the line is whole. */
function expectShown(out: string, expected: string[], what: string): void {
  let from = 0;
  for (const line of expected) {
    const parts = line.split("…").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    const re = new RegExp(`^${parts.join("[^\\n]*?")}$`, "m");
    const m = re.exec(out.slice(from));
    expect(m, `${what}: expected a line like\n  ${line}\nafter offset ${from} of its output:\n${out}`).not.toBeNull();
    from += m!.index + m![0].length;
  }
}

/** Runs `cmd args` and collects its output; never throws on a non-zero exit. */
function run(cmd: string, args: string[], o: { cwd: string; env: Record<string, string> }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { cwd: o.cwd, env: o.env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    child.on("error", fail);
    child.on("close", (code) => done({ code, stdout, stderr }));
  });
}

/** A port free on 127.0.0.1 now (the server refuses port 0: BIND_PORT is 1–65535). */
function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const s = createServer();
    s.on("error", fail);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => done(port));
    });
  });
}

const readme = readFileSync(join(root, "README.md"), "utf8");
const { blocks, prose } = quickStart(readme);
const dir = tempDir("cairn-quickstart-");
const db = join(dir, "data", "cairn.db");
/** The environment every process of the walk-through gets: one temp store, a temp config dir (no operator key). */
const env: Record<string, string> = {
  ...(process.env as Record<string, string>), CAIRN_DB_PATH: db, CAIRN_CONFIG_DIR: join(dir, "config"), CAIRN_UMP_KEY_DIR: join(dir, "config", "ump"),
};
let port = 0;
let server: ReturnType<typeof spawn> | undefined;
const rewrite = (text: string) => text.replace(/(localhost|127\.0\.0\.1):8765\b/g, `127.0.0.1:${port}`);

beforeAll(async () => {
  mkdirSync(join(dir, "data"), { recursive: true });
  port = await freePort();
  server = spawn(process.execPath, [join(root, "bin", "cairn.mjs"), "serve"], { cwd: root, env: { ...env, BIND_PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] });
  let log = "";
  await new Promise<void>((done, fail) => {
    server!.stdout!.on("data", (b: Buffer) => {
      log += b.toString();
      if (log.includes("listening on")) done();
    });
    server!.stderr!.on("data", (b: Buffer) => (log += b.toString()));
    server!.on("close", (code) => fail(new Error(`cairn serve exited ${code} before listening:\n${log}`)));
  });
}, 240_000);

afterAll(async () => {
  if (!server || server.exitCode !== null) return;
  const closed = new Promise((r) => server!.on("close", r));
  server.kill("SIGTERM");
  await closed;
});

describe("README quick start", { timeout: 600_000 }, () => {
  it("has shell, MCP configuration and TypeScript blocks", () => {
    expect(blocks.map((b) => b.lang)).toEqual(["sh", "sh", "sh", "json", "ts", "ts"]);
  });

  // Blocks run in README order: the shell blocks write the store the later ones read.
  blocks.forEach((block, i) => {
    if (block.lang === "sh") {
      it(`shell block ${i + 1} runs and prints what it shows`, async () => {
        const steps = shellSteps(block.body);
        expect(steps.length).toBeGreaterThan(0);
        for (const step of steps) {
          expect(step.expected.length, `every quick-start command shows its output: ${step.command}`).toBeGreaterThan(0);
          const r = await run("sh", ["-c", rewrite(step.command)], { cwd: root, env });
          expect(r.code, `${step.command}\n${r.stderr}`).toBe(0);
          expectShown(r.stdout, step.expected, step.command);
        }
      });
    } else if (block.lang === "json") {
      it(`MCP block ${i + 1}: the official SDK client starts the configured server over stdio and uses its tools`, async () => {
        const server = (JSON.parse(block.body) as { mcpServers: Record<string, { command: string; args: string[]; env?: Record<string, string> }> }).mcpServers.cairn!;
        // The block's database path is the reader's; this run points it at the walk-through's store.
        const transport = new StdioClientTransport({ command: server.command, args: server.args, cwd: root, env: { ...env, ...server.env, CAIRN_DB_PATH: db } });
        const client = new Client({ name: "readme-quick-start", version: "1.0.0" });
        await client.connect(transport);
        try {
          const names = (await client.listTools()).tools.map((t) => t.name);
          const named = [...prose.matchAll(/`(ump\.[a-z.]+)`/g)].map((m) => m[1]!);
          expect(named.length).toBeGreaterThan(0);
          for (const n of named) expect(names).toContain(n);
          const remembered = await client.callTool({ name: "ump.remember", arguments: { kind: "semantic", body: { text: "The staging cluster is rebuilt every Sunday night." } } });
          expect(remembered.isError, JSON.stringify(remembered)).toBeFalsy();
          const recalled = await client.callTool({ name: "ump.recall", arguments: { query: "when is staging rebuilt", limit: 3 } });
          expect(JSON.stringify(recalled.structuredContent)).toContain("rebuilt every Sunday night");
          // What the shell blocks stored is there too: the same database.
          const vault = await client.callTool({ name: "ump.recall", arguments: { query: "when does the payments ledger settle", limit: 3 } });
          expect(JSON.stringify(vault.structuredContent)).toContain("settles payments nightly");
        } finally {
          await client.close();
        }
      });
    } else if (block.lang === "ts") {
      it(`TypeScript block ${i + 1} runs with tsx and prints what its comments say`, async () => {
        const project = join(dir, `snippet-${i + 1}`);
        mkdirSync(project);
        // A consumer's project: ESM, and `cairn`, `cairn/client`, `cairn/files` resolved to this checkout's entries.
        writeFileSync(join(project, "package.json"), JSON.stringify({ name: "quick-start", private: true, type: "module" }));
        writeFileSync(join(project, "tsconfig.json"), JSON.stringify({
          extends: join(root, "tsconfig.json"),
          compilerOptions: { baseUrl: ".", paths: { cairn: [join(root, "mod.ts")], "cairn/client": [join(root, "src/client/mod.ts")], "cairn/files": [join(root, "src/ump/files.ts")] } },
          include: ["*.ts"],
        }));
        writeFileSync(join(project, "snippet.ts"), rewrite(block.body));
        const logs = block.body.split("\n").filter((l) => l.includes("console.log("));
        const shown = logs.map((l) => /\/\/ (.+)$/.exec(l)?.[1]?.trim());
        expect(shown.every((s) => s !== undefined), `every console.log in the quick start states its output:\n${logs.join("\n")}`).toBe(true);
        const r = await run(join(root, "node_modules", ".bin", "tsx"), ["--tsconfig", "tsconfig.json", "snippet.ts"], { cwd: project, env });
        expect(r.code, r.stderr).toBe(0);
        expect(r.stdout.trim().split("\n").filter(Boolean)).toEqual(shown);
      });
    }
  });
});
