/**
 * The published package, slow, so gated: `CAIRN_SLOW=1` (.ci/run sets it).
 * Starts where a newcomer or a release starts: a fresh `git clone` of this
 * repository's committed HEAD (no dist/), `npm ci` (from the npm cache when it
 * has the tarballs), then `npm publish --dry-run` and `npm pack` with no flags,
 * so the package's own lifecycle must build dist/. The tarball is unpacked as a
 * consumer's `node_modules/cairn` in a temp project whose runtime dependencies
 * come from the clone's install (offline; no tsx, no ONNX packages), which
 * imports the library, the client and the file binding on Node and on Deno,
 * runs the bins from compiled JavaScript, and checks the one-line error for a
 * missing ONNX package.
 *
 * The clone is of committed work: uncommitted edits in this checkout are not
 * in it.
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
/** The files a consumer's `import("cairn")`, `cairn/client` and `cairn/files` load. */
const entryFiles = ["dist/mod.js", "dist/mod.d.ts", "dist/src/client/mod.js", "dist/src/client/mod.d.ts", "dist/src/ump/files.js", "dist/cli.js", "dist/gateway.js"];

describe.runIf(process.env.CAIRN_SLOW === "1")("fresh clone → npm pack → consumer project", () => {
  it("packs and dry-run publishes a built package from a clone with no dist/, which imports on Node and Deno", { timeout: 1_200_000 }, async () => {
    const work = tempDir("cairn-pack-");
    const repo = join(work, "repo");
    const head = (await run("git", ["rev-parse", "HEAD"], { cwd: root })).stdout.trim();
    expect((await run("git", ["clone", "--quiet", "--no-checkout", root, repo])).status).toBe(0);
    expect((await run("git", ["checkout", "--quiet", head], { cwd: repo })).status).toBe(0);
    expect(existsSync(join(repo, "dist"))).toBe(false);

    const ci = await run("npm", ["ci", "--prefer-offline", "--no-audit", "--no-fund"], { cwd: repo });
    expect(ci.status, ci.stderr).toBe(0);
    // The install runs no dependency install script (each is reviewed in package.json `allowScripts`) and builds nothing.
    expect(ci.stderr).not.toMatch(/install scripts|install-scripts/);
    expect(existsSync(join(repo, "dist"))).toBe(false);

    // `npm publish --dry-run` from the clone: the tarball it would upload carries the compiled entry points.
    const pub = await run("npm", ["publish", "--dry-run", "--json"], { cwd: repo });
    expect(pub.status, pub.stderr).toBe(0);
    const published = (JSON.parse(pub.stdout) as Record<string, { files: { path: string }[] }>)[pkg.name]!.files.map((f) => f.path);
    for (const f of entryFiles) expect(published).toContain(f);

    // `npm pack` from the clone, again with no dist/ to start from.
    rmSync(join(repo, "dist"), { recursive: true, force: true });
    const out = join(work, "out");
    mkdirSync(out);
    const packed = await run("npm", ["pack", "--pack-destination", out], { cwd: repo });
    expect(packed.status, packed.stderr).toBe(0);
    const tgz = readdirSync(out).find((f) => f.endsWith(".tgz"))!;
    const listing = (await run("tar", ["-tzf", join(out, tgz)])).stdout.split("\n");
    for (const f of entryFiles) expect(listing).toContain(`package/${f}`);
    // `files` keeps tests, fixtures, sources and the build stamp out of the tarball.
    expect(listing.some((f) => f.startsWith("package/test/") || f.startsWith("package/fixtures/") || f.startsWith("package/src/") || f.startsWith("package/dist/test/"))).toBe(false);
    expect(listing).not.toContain("package/dist/.built");
    // The README's links into docs/ resolve inside the installed package too.
    expect(listing).toContain("package/docs/README.md");

    const app = join(work, "consumer");
    const nm = join(app, "node_modules");
    mkdirSync(join(nm, "cairn"), { recursive: true });
    expect((await run("tar", ["-xzf", join(out, tgz), "-C", join(nm, "cairn"), "--strip-components=1"])).status).toBe(0);
    // Installing the tarball asks the consumer to approve nothing: the published manifest has no install-time script
    // (npm treats `prepare` of a tarball dependency as one and warns about it).
    const manifest = JSON.parse(readFileSync(join(nm, "cairn", "package.json"), "utf8"));
    for (const s of ["preinstall", "install", "postinstall", "prepare"]) expect(manifest.scripts?.[s], s).toBeUndefined();
    // Offline: the runtime dependencies (only those) are linked from the clone's install.
    for (const dep of Object.keys(pkg.dependencies)) {
      const [scope] = dep.split("/");
      if (dep.includes("/")) mkdirSync(join(nm, scope!), { recursive: true });
      symlinkSync(join(repo, "node_modules", dep), join(nm, dep));
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
    // So does the messaging gateway's bin: compiled, and it loads and checks a config (a group-readable one is refused).
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
