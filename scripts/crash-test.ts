/**
 * Crash test (issue 23 §6): starts `cairn serve` on a fresh store, sends
 * batched ingest (`POST /ingest/memory`, 25 entries per request) from four
 * clients, `kill -9`s the server at a random moment, then reopens the store
 * and checks that every acknowledged entry is there and the audit chain and
 * store invariants hold. The next boot must report the unclean shutdown.
 *
 *   npm run crash-test -- --trials 2
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseConfig } from "../src/config/parse-config.ts";
import { openMemoryForRuntime } from "../src/server.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : dflt;
};
const TRIALS = arg("--trials", 2);

async function trial(n: number): Promise<boolean> {
  const dir = mkdtempSync(join(tmpdir(), "cairn-crash-"));
  const env = { CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: join(dir, "ump") };
  const port = 20_000 + Math.floor(Math.random() * 30_000);
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, "cli.ts"), "serve"], { env: { ...process.env, ...env, BIND_PORT: String(port) }, stdio: "ignore" });
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (await fetch(`${base}/health`).then((r) => r.ok, () => false)) break;
    if (i > 600) throw new Error("server did not start");
    await new Promise((r) => setTimeout(r, 150));
  }
  const acked: string[] = [];
  let stop = false;
  let seq = 0;
  const client = async (c: number) => {
    while (!stop) {
      const entries = Array.from({ length: 25 }, () => `crash trial ${n} client ${c} entry ${seq++} token q${Math.random().toString(36).slice(2, 12)}`);
      try {
        const res = await fetch(`${base}/ingest/memory`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ entries }) });
        if (res.ok) {
          const out = await res.json() as { results: { status: string }[] };
          out.results.forEach((r, i) => { if (r.status === "created" || r.status === "duplicate") acked.push(entries[i]!); });
        }
      } catch {
        return; // the server is gone
      }
    }
  };
  const clients = [0, 1, 2, 3].map(client);
  // Kill mid-stream: once some batches are acknowledged (the machine may be slow), then after a random delay.
  for (let waited = 0; acked.length < 100 && waited < 120_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
  await new Promise((r) => setTimeout(r, 200 + Math.random() * 1500));
  child.kill("SIGKILL");
  stop = true;
  await Promise.all(clients);
  await new Promise((r) => child.exitCode !== null || child.signalCode !== null ? r(null) : child.once("exit", r));

  const memory = await openMemoryForRuntime(parseConfig(env));
  try {
    const stored = new Set<string>();
    for (let after = 0; ;) {
      const rs = await memory.db.execute({ sql: "SELECT id, content FROM chunks WHERE id > ? ORDER BY id LIMIT 5000", args: [after] });
      if (rs.rows.length === 0) break;
      for (const r of rs.rows) stored.add(String(r.content));
      after = Number(rs.rows[rs.rows.length - 1]!.id);
    }
    const lost = acked.filter((e) => !stored.has(e));
    const check = await memory.checkConsistency();
    const failed = check.checks.filter((c) => !c.ok && c.name !== "clean_shutdown").map((c) => c.name);
    const unclean = check.checks.find((c) => c.name === "clean_shutdown")?.ok === false;
    const ok = lost.length === 0 && failed.length === 0 && unclean;
    console.log(`trial ${n}: ${acked.length} acknowledged, ${stored.size} stored, ${lost.length} lost; checks ${failed.length ? `FAILED ${failed.join(", ")}` : "ok"}; unclean shutdown ${unclean ? "reported" : "NOT reported"} → ${ok ? "pass" : "FAIL"}`);
    return ok;
  } finally {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

let allOk = true;
for (let i = 1; i <= TRIALS; i++) allOk = (await trial(i)) && allOk;
console.log(allOk ? `crash-test: ${TRIALS} trials passed` : "crash-test: FAILED");
process.exit(allOk ? 0 : 1);
