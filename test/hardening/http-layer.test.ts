/**
 * Issue 23 §3: answers the HTTP layer gives before or around the app, over a
 * real loopback socket: a 413 the client can read (and a connection that
 * still works or is closed cleanly), the envelope on an unknown method, an
 * 18 KB URL and malformed request targets, X-Api-Version on all of them.
 */
import { connect } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bootServer, type BootedServer } from "../../src/server.ts";
import { tempDir } from "../_helpers/memory.ts";

let booted: BootedServer;
beforeAll(async () => { booted = await bootServer({ CAIRN_DB_PATH: join(tempDir(), "h.db") }, 0); });
afterAll(async () => { await booted.close(); });

/** Writes raw bytes on one connection and collects everything until the server closes or `idleMs` passes. */
function rawExchange(chunks: (string | Uint8Array)[], idleMs = 400): Promise<string> {
  return new Promise((resolve, reject) => {
    const sock = connect(booted.server.port, "127.0.0.1");
    let out = "";
    let timer: ReturnType<typeof setTimeout>;
    const done = () => { clearTimeout(timer); sock.destroy(); resolve(out); };
    const arm = () => { clearTimeout(timer); timer = setTimeout(done, idleMs); };
    sock.on("data", (d) => { out += d.toString("latin1"); arm(); });
    sock.on("end", done);
    sock.on("error", (e) => (out ? done() : reject(e)));
    sock.on("connect", async () => {
      for (const c of chunks) {
        if (!sock.write(c)) await new Promise((r) => sock.once("drain", r));
      }
      arm();
    });
  });
}

function statusLines(text: string): string[] {
  return text.split("\r\n").filter((l) => /^HTTP\/1\.1 \d{3}/.test(l));
}

describe("oversized bodies (SPEC §7 bare 413)", () => {
  it("answers 413 and then serves the next request on that connection, or closes it cleanly", async () => {
    const big = new Uint8Array(2 * 1024 * 1024 + 17).fill(0x61);
    const head = `POST /ingest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${big.length}\r\n\r\n`;
    const next = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    const out = await rawExchange([head, big, next]);
    const lines = statusLines(out);
    expect(lines[0]).toBe("HTTP/1.1 413 Payload Too Large");
    expect(out.toLowerCase()).toContain("x-api-version: 1.0.0");
    // Either the follow-up is answered, or the 413 said the connection closes (the client then reconnects).
    if (lines.length === 1) expect(out.toLowerCase()).toContain("connection: close");
    else expect(lines[1]).toBe("HTTP/1.1 200 OK");
  });

  it("every one of 20 oversized POSTs through fetch reads a 413 (no socket error)", async () => {
    const body = "x".repeat(1024 * 1024 + 1);
    const outcomes = await Promise.all(Array.from({ length: 20 }, () =>
      fetch(`http://127.0.0.1:${booted.server.port}/ingest`, { method: "POST", headers: { "content-type": "application/json" }, body })
        .then(async (r) => { await r.arrayBuffer(); return r.status; }, (e) => String(e))));
    expect(outcomes).toEqual(new Array(20).fill(413));
  });

  it("a chunked body over the limit also answers 413", async () => {
    const chunk = "x".repeat(256 * 1024);
    const parts = [`POST /ingest HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`];
    for (let i = 0; i < 5; i++) parts.push(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    parts.push("0\r\n\r\n");
    const out = await rawExchange(parts);
    expect(statusLines(out)[0]).toBe("HTTP/1.1 413 Payload Too Large");
  });
});

describe("requests the HTTP parser refuses carry the envelope and X-Api-Version", () => {
  const cases: [string, string, number][] = [
    ["an unknown method", "FOO /audit HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400],
    ["an 18 KB URL", `GET /recall?q=${"a".repeat(18 * 1024)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`, 431],
    ["a backslash path", "GET /\\audit HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400],
    ["a target without a leading slash", "GET %2faudit HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 400],
  ];
  for (const [name, req, status] of cases) {
    it(`${name}: ${status} with the SPEC §7 envelope`, async () => {
      const out = await rawExchange([req]);
      expect(statusLines(out)[0]).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
      expect(out.toLowerCase()).toContain("x-api-version: 1.0.0");
      const body = JSON.parse(out.slice(out.indexOf("\r\n\r\n") + 4));
      expect(typeof body.error.code).toBe("string");
      expect(typeof body.error.message).toBe("string");
    });
  }
});
