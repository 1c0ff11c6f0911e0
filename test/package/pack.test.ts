/**
 * The published package (issue 21), slow, so gated: `CAIRN_SLOW=1` (.ci/run
 * sets it). Packs the tarball (`npm pack`), unpacks it as a consumer's
 * `node_modules/cairn` in a temp project whose runtime dependencies come from
 * this checkout (offline; no tsx, no ONNX packages), then imports the
 * library, the client and the file binding on Node and on Deno, runs the bin
 * from compiled JavaScript, and checks the one-line error for a missing ONNX
 * package.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../_helpers/memory.ts";

/** Runs a command without blocking the worker (vitest's RPC must keep answering during the minutes this takes). */
function run(cmd: string, args: string[], o: { cwd?: string } = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { cwd: o.cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    child.on("error", fail);
    child.on("close", (status) => done({ status, stdout, stderr }));
  });
}

const root = resolve(new URL("../..", import.meta.url).pathname);
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));

describe.runIf(process.env.CAIRN_SLOW === "1")("npm pack → consumer project", () => {
  it("installs from the tarball and imports cairn, cairn/client and cairn/files on Node and Deno", { timeout: 600_000 }, async () => {
    expect((await run(process.execPath, [join(root, "bin", "build-if-stale.mjs")], { cwd: root })).status).toBe(0);
    const out = tempDir("cairn-pack-");
    expect((await run("npm", ["pack", "--ignore-scripts", "--pack-destination", out], { cwd: root })).status).toBe(0);
    const tgz = readdirSync(out).find((f) => f.endsWith(".tgz"))!;
    const listing = (await run("tar", ["-tzf", join(out, tgz)])).stdout.split("\n");
    // `files` keeps tests, fixtures, sources and the build stamp out of the tarball.
    expect(listing.some((f) => f.startsWith("package/test/") || f.startsWith("package/fixtures/") || f.startsWith("package/src/"))).toBe(false);
    expect(listing).toContain("package/dist/mod.js");
    expect(listing).toContain("package/dist/src/client/mod.d.ts");

    const app = join(out, "consumer");
    const nm = join(app, "node_modules");
    mkdirSync(join(nm, "cairn"), { recursive: true });
    expect((await run("tar", ["-xzf", join(out, tgz), "-C", join(nm, "cairn"), "--strip-components=1"])).status).toBe(0);
    // Offline: the runtime dependencies (only those) are linked from this checkout's install.
    for (const dep of Object.keys(pkg.dependencies)) {
      const [scope] = dep.split("/");
      if (dep.includes("/")) mkdirSync(join(nm, scope!), { recursive: true });
      symlinkSync(join(root, "node_modules", dep), join(nm, dep));
    }
    expect(existsSync(join(nm, "tsx"))).toBe(false);
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module", dependencies: { cairn: pkg.version } }));
    writeFileSync(join(app, "use.mjs"), `
      import { openMemory, parseConfig, createApp, VERSION } from "cairn";
      import { createClient, MemoryError } from "cairn/client";
      import { parseUmpJson, recordId } from "cairn/files";
      const memory = await openMemory(parseConfig({ CAIRN_DB_PATH: ${JSON.stringify(join(app, "m.db"))}, CAIRN_EMBED_KIND: "none" }), { rssBytes: () => 0 });
      const app = createApp(memory);
      const put = await (await app.request("/ingest", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ title: "t", content: "from a consumer" }) }, { remoteAddr: "127.0.0.1" })).json();
      const client = createClient({ baseUrl: "http://127.0.0.1:9" });
      const [rec] = parseUmpJson(JSON.stringify({ ump: "1.0", records: [{ kind: "semantic", body: { text: "x" } }] }));
      console.log(JSON.stringify({ VERSION, status: put.status, client: typeof client.recall, err: new MemoryError("a_b", "m").code, id: recordId(rec).slice(0, 8) }));
      await memory.close();
    `);
    const node = await run(process.execPath, ["use.mjs"], { cwd: app });
    expect(node.stderr).toBe("");
    expect(JSON.parse(node.stdout)).toEqual({ VERSION: pkg.version, status: "created", client: "function", err: "a_b", id: "urn:ump:" });

    // The bin runs compiled JavaScript (no tsx installed here).
    const bin = await run(process.execPath, [join(nm, "cairn", "bin", "cairn.mjs"), "--version"], { cwd: app });
    expect(bin.stdout).toContain(pkg.version);
    // So does the messaging gateway's bin (issue 18): compiled, and it loads and checks a config (a group-readable one is refused).
    expect(listing).toContain("package/dist/gateway.js");
    const gw = await run(process.execPath, [join(nm, "cairn", "bin", "cairn-gateway.mjs"), "--version"], { cwd: app });
    expect(gw.stdout).toContain(`cairn-gateway/${pkg.version}`);
    writeFileSync(join(app, "gateway.json"), "{}", { mode: 0o644 });
    const refused = await run(process.execPath, [join(nm, "cairn", "bin", "cairn-gateway.mjs"), "serve", "--config", "gateway.json"], { cwd: app });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("config refused: gateway config: the file must be owner-only");

    // A lean install asked for the ONNX lane names the package to install, in one line (the model files are placeholders:
    // the runtime package is looked for before any model is read).
    mkdirSync(join(app, "model", "onnx"), { recursive: true });
    for (const f of ["config.json", "tokenizer.json", "tokenizer_config.json"]) writeFileSync(join(app, "model", f), "{}");
    writeFileSync(join(app, "model", "onnx", "model.onnx"), "placeholder");
    const onnx = await run(process.execPath, ["--input-type=module", "-e", `
      import { bootServer } from "cairn";
      try { const b = await bootServer({ CAIRN_DB_PATH: "o.db", CAIRN_EMBED_KIND: "onnx", CAIRN_EMBED_MODEL_DIR: "model" }, 0); await b.close(); console.log("booted"); }
      catch (e) { console.log(e.message); }`], { cwd: app });
    expect(onnx.stdout.trim()).toMatch(/^CAIRN_EMBED_KIND=onnx needs the optional package (onnxruntime-web|onnxruntime-node|@huggingface\/transformers): npm install \S+$/);

    // Deno resolves the same package through node_modules (a fresh store, so the write is created again).
    for (const f of readdirSync(app).filter((x) => x.startsWith("m.db"))) rmSync(join(app, f));
    const deno = await run(join(root, "node_modules", ".bin", "deno"), ["run", "--allow-all", "--node-modules-dir=manual", "use.mjs"], { cwd: app });
    expect(deno.status, deno.stderr).toBe(0);
    expect(JSON.parse(deno.stdout.trim().split("\n").pop()!)).toMatchObject({ VERSION: pkg.version, status: "created", client: "function" });
  });
});
