import { execFile, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { createClient } from "@libsql/client";
import { afterEach, describe, expect, it } from "vitest";
import { tempDir } from "../_helpers/memory.ts";
import { freePort, spawnServe } from "../_helpers/serve.ts";

const root = resolve(new URL("../..", import.meta.url).pathname);
const bin = join(root, "bin", "cairn.mjs");
const run = promisify(execFile);

const children: ChildProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
});

/** Spawns the real server (`node bin/cairn.mjs serve`) on `env.BIND_PORT` and waits until /health answers. */
async function startServer(env: Record<string, string>): Promise<{ proc: ChildProcess; base: string }> {
  const s = await spawnServe(env, { port: Number(env.BIND_PORT), bootTries: 600 });
  children.push(s.proc);
  return s;
}

async function exited(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  await new Promise<void>((r) => proc.once("exit", () => r()));
}

const post = (base: string, path: string, body: unknown) =>
  fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("the real server process", () => {
  it("survives SIGKILL mid-batch: after restart the audit chain verifies and every acknowledged write is present", async () => {
    const dir = tempDir();
    const env = { BIND_PORT: String(await freePort()), CAIRN_DB_PATH: join(dir, "crash.db") };
    const first = await startServer(env);
    const acked: { id: number; content: string; kind: "chunk" | "proposal" }[] = [];
    let stop = false;
    let lost = 0;
    // Six concurrent writers: structured ingests, agent memories and proposals, until the kill.
    const writer = async (w: number) => {
      for (let i = 0; !stop; i++) {
        const content = `writer ${w} record ${i} about crash-safety`;
        const [path, body, kind] = i % 3 === 2
          ? ["/ingest/proposal", { content }, "proposal" as const]
          : i % 3 === 1 ? ["/ingest/memory", { content }, "chunk" as const] : ["/ingest", { title: `w${w}`, content }, "chunk" as const];
        try {
          const res = await post(first.base, path, body);
          if (res.status === 200) acked.push({ id: (await res.json()).id, content, kind });
        } catch {
          lost++; // the process died under this request: not acknowledged
          return;
        }
      }
    };
    const writers = [0, 1, 2, 3, 4, 5].map(writer);
    while (acked.length < 150) await new Promise((r) => setTimeout(r, 5));
    first.proc.kill("SIGKILL");
    stop = true;
    await Promise.all(writers);
    await exited(first.proc);
    expect(first.proc.signalCode).toBe("SIGKILL");
    expect(lost).toBeGreaterThan(0); // the kill landed mid-batch: requests were in flight

    const second = await startServer(env);
    const verify = await (await fetch(`${second.base}/audit/verify`)).json();
    expect(verify.ok).toBe(true);
    const c = createClient({ url: `file:${env.CAIRN_DB_PATH}` });
    try {
      const chunks = new Map((await c.execute("SELECT id, content FROM chunks")).rows.map((r) => [Number(r.id), String(r.content)]));
      const proposals = new Map((await c.execute("SELECT id, content FROM proposals")).rows.map((r) => [Number(r.id), String(r.content)]));
      for (const a of acked) expect((a.kind === "chunk" ? chunks : proposals).get(a.id)).toBe(a.content);
      // Every stored chunk and proposal committed with its audit row (nothing half-written).
      const targets = new Set((await c.execute("SELECT target FROM audit_log")).rows.map((r) => String(r.target)));
      for (const id of chunks.keys()) expect(targets.has(`chunk:${id}`)).toBe(true);
      for (const id of proposals.keys()) expect(targets.has(`proposal:${id}`)).toBe(true);
      expect(verify.rows).toBe(chunks.size + proposals.size);
    } finally {
      c.close();
    }
    second.proc.kill("SIGTERM");
    await exited(second.proc);
  }, 120_000);

  it("erases through the real server: gone from recall and the lexical snapshot after a restart; the CLI verifies the certificate over --url", async () => {
    const dir = tempDir();
    const env = { BIND_PORT: String(await freePort()), CAIRN_DB_PATH: join(dir, "erase.db") };
    const first = await startServer(env);
    await post(first.base, "/ingest", { title: "Ticket", content: "Customer ruth.okafor@example.net asked about the marmalade subscription." });
    await post(first.base, "/ingest", { title: "Other", content: "The marmalade subscription ships monthly." });
    const out = await (await post(first.base, "/dsar", { email: "ruth.okafor@example.net" })).json();
    expect(out.certificate.erased.chunk_ids).toHaveLength(1);
    // Graceful stop persists the lexical snapshot; it must not hold the erased terms.
    first.proc.kill("SIGTERM");
    await exited(first.proc);
    const snapPath = `${env.CAIRN_DB_PATH}.lexical.snap`;
    expect(existsSync(snapPath)).toBe(true);
    const snap = readFileSync(snapPath, "utf8");
    expect(snap).toContain("marmalad");
    expect(snap).not.toMatch(/ruth|okafor/);

    const second = await startServer(env);
    const hits = (await (await post(second.base, "/recall", { query: "ruth okafor marmalade customer", limit: 10 })).json()).hits;
    expect(hits.map((h: { content: string }) => h.content).join(" ")).not.toMatch(/ruth|okafor/i);
    // Half the query is erased terms, so it may abstain; the surviving note is still found.
    const kept = (await (await post(second.base, "/recall", { query: "marmalade subscription", limit: 10 })).json()).hits;
    expect(kept).toHaveLength(1);
    expect(kept[0].content).toContain("ships monthly");

    const certFile = join(dir, "certificate.json");
    writeFileSync(certFile, JSON.stringify(out.certificate));
    const ok = await run("node", [bin, "verify-certificate", certFile, "--url", second.base, "--subject-email", "Ruth.Okafor@example.net"], { cwd: root, timeout: 60_000 });
    expect(ok.stdout).toContain("certificate valid");
    writeFileSync(certFile, JSON.stringify({ ...out.certificate, issued_at: "2001-01-01T00:00:00.000Z" }));
    const bad = await run("node", [bin, "verify-certificate", certFile, "--url", second.base], { cwd: root, timeout: 60_000 }).catch((e) => e);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("FAIL digest");
    second.proc.kill("SIGTERM");
    await exited(second.proc);
  }, 120_000);
});
