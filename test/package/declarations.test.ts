/**
 * The published declarations compile in a strict consumer with `skipLibCheck: false` (slow, gated like the pack
 * test: `CAIRN_SLOW=1`). Builds dist/ when stale, links this checkout as the consumer's `node_modules/cairn` (its
 * package.json `exports` lead to dist/), and type-checks the examples/ snippets plus one import of every entry
 * against the built `.d.ts` files: zero diagnostics, library declarations included.
 */
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../_helpers/memory.ts";
import { rows, typecheck } from "../_helpers/tsc.ts";

const root = resolve(new URL("../..", import.meta.url).pathname);

function run(cmd: string, args: string[], cwd: string): Promise<number | null> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { cwd, stdio: "ignore" });
    child.on("error", fail);
    child.on("close", done);
  });
}

describe.runIf(process.env.CAIRN_SLOW === "1")("built declarations in a consumer", () => {
  it("the examples and every entry compile against dist/ with skipLibCheck false", { timeout: 600_000 }, async () => {
    expect(await run(process.execPath, [join(root, "bin", "build-if-stale.mjs")], root)).toBe(0);
    const app = tempDir("cairn-dts-");
    const nm = join(app, "node_modules");
    mkdirSync(join(nm, "@types"), { recursive: true });
    symlinkSync(root, join(nm, "cairn"));
    // What a consumer of the examples installs beside cairn: hono (for hc) and Node's types.
    symlinkSync(join(root, "node_modules", "hono"), join(nm, "hono"));
    symlinkSync(join(root, "node_modules", "@types", "node"), join(nm, "@types", "node"));
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
    const files: string[] = [];
    for (const f of readdirSync(join(root, "examples")).filter((f) => f.endsWith(".ts"))) {
      copyFileSync(join(root, "examples", f), join(app, f));
      files.push(join(app, f));
    }
    writeFileSync(join(app, "entries.ts"), `
      import type { Memory, RecallHit, RecallReply, IngestResult } from "cairn";
      import type { AppType, CairnClient } from "cairn/client";
      import { parseUmpJson } from "cairn/files";
      export type All = [Memory, RecallHit, RecallReply, IngestResult, AppType, CairnClient, typeof parseUmpJson];
    `);
    files.push(join(app, "entries.ts"));
    const diags = await typecheck({
      cwd: app,
      files,
      options: { strict: true, skipLibCheck: false, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2022", "DOM", "DOM.Iterable"], types: ["node"] },
    });
    expect(rows(diags, app)).toEqual([]);
  });
});
