/**
 * Bounds of `POST /domains/{name}/import` (SPEC §4.5, §8; docs/limits.md "Snapshot import"), over real HTTP on
 * loopback: a gzip'd body that expands past the documented caps is refused with 422 `snapshot_too_large`; the import
 * stops when its client goes away and at its deadline; other writers are not held behind it; and in every case
 * nothing is left behind. The bombs are a valid snapshot header followed by newlines, gzip'd (~1,000:1).
 */
import { request } from "node:http";
import { join } from "node:path";
import { createGzip } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { bootServer, type BootedServer } from "../../src/server.ts";
import { tempDir } from "../_helpers/memory.ts";
import { cases as compressionBombs } from "../hardening/corpus/compression.ts";

const running: BootedServer[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.close();
});

async function boot(env: Record<string, string> = {}): Promise<{ s: BootedServer; base: string }> {
  const dir = tempDir();
  const s = await bootServer({ CAIRN_DB_PATH: join(dir, "cairn.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump"), CAIRN_EMBED_KIND: "none", ...env }, 0);
  running.push(s);
  return { s, base: `http://127.0.0.1:${s.server.port}` };
}

const HEADER = JSON.stringify({ t: "header", format: "cairn-domain-snapshot", version: 1, domain: "bomb", created_at: "2026-01-01T00:00:00.000Z", schema: "x", embedder: null });

/** A valid header line, then `newlines` bytes of "\n", gzip'd. */
export async function newlineBomb(newlines: number): Promise<Uint8Array> {
  const gz = createGzip({ level: 9 });
  const parts: Buffer[] = [];
  gz.on("data", (b: Buffer) => parts.push(b));
  const done = new Promise<void>((r) => gz.on("end", () => r()));
  gz.write(`${HEADER}\n`);
  const block = Buffer.alloc(1024 * 1024, 10);
  for (let left = newlines; left > 0; left -= block.length) {
    if (!gz.write(left >= block.length ? block : block.subarray(0, left))) await new Promise((r) => gz.once("drain", r));
  }
  gz.end();
  await done;
  return new Uint8Array(Buffer.concat(parts));
}

interface Sent { status: number; body: any }

/** POSTs bytes on a fresh connection; `abortAfterSend` destroys the socket once the whole body is written. */
function post(base: string, path: string, bytes: Uint8Array, o: { type?: string; abortAfterSend?: boolean } = {}): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const req = request(`${base}${path}`, {
      method: "POST", agent: false, headers: { "content-type": o.type ?? "application/octet-stream", "content-length": String(bytes.length) },
    }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => {
        const text = Buffer.concat(parts).toString("utf8");
        let body: unknown;
        try { body = JSON.parse(text); } catch { body = text; }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on("error", (e) => (o.abortAfterSend ? resolve({ status: 0, body: String(e) }) : reject(e)));
    req.end(bytes, () => {
      if (o.abortAfterSend) setTimeout(() => req.destroy(), 50);
    });
  });
}

const json = async (base: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${base}${path}`, { method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
};

async function nothingBehind(base: string): Promise<void> {
  expect((await json(base, "GET", "/domains")).body.domains.map((d: { name: string }) => d.name)).toEqual(["global"]);
  expect((await json(base, "GET", "/audit?action=domain_import")).body.rows).toEqual([]);
}

const metric = async (base: string, series: string) => {
  const text = await (await fetch(`${base}/metrics`)).text();
  const m = new RegExp(`^${series.replace(/[{}"]/g, (c) => `\\${c}`)} (\\d+)$`, "m").exec(text);
  return m ? Number(m[1]) : 0;
};

describe("snapshot import expansion caps (SPEC §4.5, §8)", () => {
  it("refuses a newline bomb (valid header, 128 MiB of newlines gzip'd) with 422 snapshot_too_large at the line cap", async () => {
    const { base } = await boot();
    const bomb = await newlineBomb(128 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const res = await post(base, "/domains/bomb/import", bomb);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("snapshot_too_large");
    expect(res.body.error.details).toMatchObject({ limit: "lines", max: 2_000_000 });
    await nothingBehind(base);
  }, 120_000);

  it("refuses a snapshot that expands past CAIRN_SNAPSHOT_MAX_EXPANDED_MIB with 422 snapshot_too_large", async () => {
    const { base } = await boot({ CAIRN_SNAPSHOT_MAX_EXPANDED_MIB: "1" });
    const res = await post(base, "/domains/bomb/import", await newlineBomb(3 * 1024 * 1024));
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe("snapshot_too_large");
    expect(res.body.error.details).toMatchObject({ limit: "expanded_bytes", max: 1024 * 1024 });
    await nothingBehind(base);
  }, 120_000);
});

describe("snapshot import stops and lets others write (SPEC §4.5, §8)", () => {
  // Caps raised so the bomb is a long import rather than a refusal: what stops it here is the client or the deadline.
  const uncapped = { CAIRN_SNAPSHOT_MAX_LINES: "1000000000", CAIRN_SNAPSHOT_MAX_EXPANDED_MIB: "65536" };

  it("stops the import when the client goes away, leaving nothing behind", async () => {
    const { base } = await boot(uncapped);
    const bomb = await newlineBomb(1024 * 1024 * 1024);
    await post(base, "/domains/bomb/import", bomb, { abortAfterSend: true });
    // The work ends at its next slice boundary, well before it could have gunzipped its 1 GiB.
    let stopped = 0;
    for (let i = 0; i < 300 && stopped === 0; i++) {
      stopped = await metric(base, 'cairn_abandoned_work_total{outcome="stopped"}');
      if (stopped === 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(stopped).toBe(1);
    await nothingBehind(base);
  }, 180_000);

  it("stops the import at CAIRN_IMPORT_DEADLINE_MS with 503 deadline_exceeded, leaving nothing behind", async () => {
    const { base } = await boot({ ...uncapped, CAIRN_IMPORT_DEADLINE_MS: "300" });
    const res = await post(base, "/domains/bomb/import", await newlineBomb(128 * 1024 * 1024));
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("deadline_exceeded");
    await nothingBehind(base);
  }, 180_000);

  it("holds no other writer while it reads its body: a small write during the import is answered first", async () => {
    const { base } = await boot(uncapped);
    const order: string[] = [];
    const imp = post(base, "/domains/bomb/import", await newlineBomb(128 * 1024 * 1024)).then((r) => {
      order.push(`import ${r.status}`);
      return r;
    });
    await new Promise((r) => setTimeout(r, 300));
    const write = await json(base, "POST", "/ingest", { title: "During", content: "Written while a snapshot import reads its body." });
    order.push(`ingest ${write.status}`);
    const done = await imp;
    // The bomb has no trailer: refused once read, and it never held the write slot meanwhile.
    expect(done.body.error.code).toBe("snapshot_invalid");
    expect(order).toEqual(["ingest 200", "import 400"]);
    await nothingBehind(base);
  }, 180_000);
});

describe("the compression-bomb corpus (test/hardening/corpus/compression.ts)", () => {
  // The snapshot import's bombs (the other compressed bodies are never inflated: hostile-corpus.test.ts sends them).
  // The heavy cases (a GiB and more once gunzipped) run with CAIRN_FUZZ_HEAVY=1 (as `npm run fuzz` sets).
  const chosen = compressionBombs.filter((c) => c.path.endsWith("/import") && (!c.heavy || process.env.CAIRN_FUZZ_HEAVY === "1"));
  it.each(chosen.map((c) => [c.name, c] as const))("%s: refused with its code, nothing behind", async (_name, c) => {
    const { base } = await boot();
    const res = await post(base, c.path, c.body!() as Uint8Array, { type: c.headers?.["content-type"] });
    expect(c.expect.status).toContain(res.status);
    expect(res.body.error.code).toBe(c.expect.code);
    await nothingBehind(base);
  }, 300_000);
});
