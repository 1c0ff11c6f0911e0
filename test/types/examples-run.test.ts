/**
 * The examples run, not only compile: examples/library.ts (the library imported first, as a consumer's program
 * does) stores, recalls, meets a refusal as a MemoryError and serves /health; examples/client.ts does the same over
 * a real server on loopback with the typed client.
 */
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootServer, type BootedServer } from "../../src/server.ts";
import { tempDir } from "../_helpers/memory.ts";

const root = resolve(new URL("../..", import.meta.url).pathname);
const TOKEN = "examples-test-token-0123456789";

function runExample(file: string, env: Record<string, string>): Promise<{ status: number | null; out: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(root, "node_modules/tsx/dist/cli.mjs"), "--tsconfig", join(root, "examples/tsconfig.json"), join(root, "examples", file)], {
      cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (out += b.toString()));
    child.on("error", fail);
    child.on("close", (status) => done({ status, out }));
  });
}

describe("the examples run", () => {
  let booted: BootedServer;
  beforeAll(async () => {
    booted = await bootServer({ CAIRN_DB_PATH: join(tempDir(), "s.db"), AUTH_TOKEN: TOKEN, CAIRN_EMBED_KIND: "none" }, 0);
  });
  afterAll(() => booted.close());

  it("examples/library.ts stores, recalls, reports limit_out_of_range and serves /health", { timeout: 180_000 }, async () => {
    const r = await runExample("library.ts", { CAIRN_DB_PATH: join(tempDir(), "lib.db"), CAIRN_EMBED_KIND: "none" });
    expect(r.status, r.out).toBe(0);
    expect(r.out).toMatch(/^ingest: created #\d+$/m);
    expect(r.out).toMatch(/Deploys happen on Tuesday mornings\./);
    expect(r.out).toMatch(/^limit_out_of_range \{ min: 1, max: 100 \}$/m);
    expect(r.out).toMatch(/^200$/m);
  });

  it("examples/client.ts stores, recalls and reports refusals over HTTP", { timeout: 180_000 }, async () => {
    const r = await runExample("client.ts", { CAIRN_URL: `http://127.0.0.1:${booted.server.port}`, CAIRN_TOKEN: TOKEN });
    expect(r.status, r.out).toBe(0);
    expect(r.out).toMatch(/^stored \d+$/m);
    expect(r.out).toMatch(/^\d+ [\d.]+ Rollback$/m);
    expect(r.out).toMatch(/^limit_out_of_range 400 \{ min: 1, max: 100 \}$/m);
    expect(r.out).toMatch(/^created$/m);
  });
});
