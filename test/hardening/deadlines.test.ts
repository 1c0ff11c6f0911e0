/**
 * Deadlines on CPU-bound work, over real HTTP (SPEC §7, §8): a write past `CAIRN_REQUEST_DEADLINE_MS` answers 503
 * `deadline_exceeded` and its work stops without committing anything, ever; a recall past `CAIRN_RECALL_BUDGET_MS`
 * answers 503 `recall_unavailable`; and `/health` is answered while a long request is still being processed.
 * Each server is the real `cairn serve` process (bin/cairn.mjs) on a loopback port, with the default static embedder.
 */
import { request } from "node:http";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../_helpers/memory.ts";
import { prose } from "../_helpers/prose.ts";
import { startServer, type ServerProc } from "../scale/_procs.ts";

const running: ServerProc[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
});

async function serve(env: Record<string, string>): Promise<ServerProc> {
  const dir = tempDir();
  const s = await startServer({ CAIRN_EMBED_KIND: "static", CAIRN_DB_PATH: join(dir, "cairn.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump"), ...env });
  running.push(s);
  return s;
}

/** A markdown note of many short sections: parsing, chunking and graph planning are all per section. */
function sections(bytes: number): string {
  const out: string[] = ["# Field notes\n"];
  let n = 0;
  for (let i = 0; n < bytes; i++) {
    const s = `\n## Section ${i}\n\n${prose(220, i + 7)}\n`;
    out.push(s);
    n += s.length;
  }
  return out.join("");
}

/**
 * One request on a fresh connection (no keep-alive): a pooled socket the server closed while it was busy would
 * otherwise turn into a client-side reset that says nothing about the server.
 */
function send(base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any; text: string }> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = request(`${base}${path}`, {
      method, agent: false, headers: data ? { "content-type": "application/json", "content-length": String(data.length) } : {},
    }, (res) => {
      const parts: Buffer[] = [];
      res.on("data", (c: Buffer) => parts.push(c));
      res.on("end", () => {
        const text = Buffer.concat(parts).toString("utf8");
        let json: unknown;
        try { json = JSON.parse(text); } catch { json = undefined; }
        resolve({ status: res.statusCode ?? 0, body: json, text });
      });
    });
    req.on("error", reject);
    req.end(data);
  });
}

const metric = (text: string, name: string, labels = "") => {
  const m = new RegExp(`^${name}${labels.replace(/[{}"]/g, (c) => `\\${c}`)} (\\d+)$`, "m").exec(text);
  return m ? Number(m[1]) : 0;
};

/**
 * Polls /metrics until the abandoned work of `n` requests has ended (it stops at its next slice boundary), or the
 * counts have not moved for 3 s: a request whose own work saw the deadline first (a clock read at a slice boundary,
 * before the guard's timer ran) was answered by that work, which had already stopped, and is not counted as abandoned.
 */
async function abandonedSettled(s: ServerProc, n: number): Promise<{ stopped: number; completed: number }> {
  let seen = "";
  let still = 0;
  for (let i = 0; i < 600; i++) {
    const { text } = await send(s.base, "GET", "/metrics");
    const stopped = metric(text, "cairn_abandoned_work_total", '{outcome="stopped"}');
    const completed = metric(text, "cairn_abandoned_work_total", '{outcome="completed"}');
    if (stopped + completed >= n) return { stopped, completed };
    still = `${stopped}/${completed}` === seen ? still + 1 : 0;
    seen = `${stopped}/${completed}`;
    if (still >= 30) return { stopped, completed };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the abandoned work never ended");
}

describe("the request deadline stops CPU-bound work (SPEC §8)", () => {
  it("a CPU-bound ingest past the deadline answers 503 deadline_exceeded, and its work stops without ever committing", async () => {
    const s = await serve({ CAIRN_REQUEST_DEADLINE_MS: "50" });
    // ~1 MB of content: the screen and the embedding alone take several times the deadline.
    const big = await send(s.base, "POST", "/ingest", { title: "Big note", content: prose(990_000) });
    expect(big.status).toBe(503);
    expect(big.body.error.code).toBe("deadline_exceeded");
    // A markdown note of ~2,000 sections: its chunks, their graph rows and audit rows would be one transaction.
    const md = await send(s.base, "POST", "/ingest/markdown", { title: "Field notes", content: sections(300_000) });
    expect(md.status).toBe(503);
    expect(md.body.error.code).toBe("deadline_exceeded");
    // The work behind both answers ended by stopping, not by finishing later.
    expect((await abandonedSettled(s, 2)).completed).toBe(0);
    // Nothing was half-written: no chunk, no audit row of either door.
    expect((await send(s.base, "GET", "/stats")).body.docs).toBe(0);
    for (const action of ["ingest", "ingest_markdown"]) {
      expect((await send(s.base, "GET", `/audit?action=${action}`)).body.rows).toEqual([]);
    }
  }, 180_000);
});

describe("the recall budget fires on CPU-bound recalls (SPEC §7)", () => {
  it("a recall spending more than CAIRN_RECALL_BUDGET_MS in its legs answers 503 recall_unavailable", async () => {
    const s = await serve({ CAIRN_RECALL_BUDGET_MS: "1", CAIRN_RATE_LIMIT_MAX: "100000" });
    // 8,000 notes sharing one small vocabulary: every query word has long posting lists.
    for (let b = 0; b < 32; b++) {
      const items = Array.from({ length: 250 }, (_, i) => ({ title: `Note ${b}-${i}`, content: prose(400, b * 1000 + i) }));
      expect((await send(s.base, "POST", "/ingest/batch", { items })).status).toBe(200);
    }
    // A long query of common words, asking for the vector leg too (a scan of the whole matrix).
    const query = prose(1500, 99).replace(/[.\n]/g, " ");
    const res = await send(s.base, "POST", "/recall", { query, vec: query.slice(0, 400), limit: 10 });
    expect(res.status).toBe(503);
    expect(res.body.error.code).toBe("recall_unavailable");
    expect(res.body.error.message).not.toMatch(/stack|sql|\//i);
  }, 240_000);
});

describe("/health while a long request is in flight (SPEC §4.8)", () => {
  it("answers /health before a long CPU-bound ingest finishes", async () => {
    const s = await serve({});
    let finished = false;
    const long = send(s.base, "POST", "/ingest/markdown", { title: "Field notes", content: sections(300_000) }).finally(() => (finished = true));
    // One /health after another, each sent when the previous one answered, for as long as the ingest runs. A server
    // whose event loop the ingest holds answers a few at most (each waits for the whole stretch of work).
    const answered: number[] = [];
    while (!finished) {
      const h = await send(s.base, "GET", "/health");
      if (!finished) answered.push(h.status);
      await new Promise((r) => setTimeout(r, 10));
    }
    expect((await long).status).toBe(200);
    expect(answered.length).toBeGreaterThanOrEqual(20);
    expect(answered.every((st) => st === 200)).toBe(true);
  }, 180_000);
});

describe("a long markdown document parsed on the worker thread (SPEC §8)", () => {
  it("answers the parser's refusal with its code, as an in-thread parse does", async () => {
    const s = await serve({});
    // Past the 32 KB cut-over, so the served parse runs on the worker.
    for (const content of [">".repeat(200_000), "> - ".repeat(50_000)]) {
      const res = await send(s.base, "POST", "/ingest/markdown", { title: "Too deep", content });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe("markdown_too_complex");
    }
    const fm = await send(s.base, "POST", "/ingest/markdown", { title: "Bomb", content: `---\nl: [${Array(20_000).fill("1").join(", ")}]\n---\n${"body text\n".repeat(4_000)}` });
    expect(fm.status).toBe(400);
    expect(fm.body.error.code).toBe("frontmatter_too_large");
  }, 120_000);
});

