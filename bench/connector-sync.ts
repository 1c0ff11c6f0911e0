/**
 * Connector sync throughput (issue 15): `npx tsx bench/connector-sync.ts [--issues 10000] [--runs 3]`.
 *
 * Starts the loopback fake GitHub (test/connectors/_fake-github.ts: App JWT verified, installation token checked,
 * `Link` pagination at 100 per page), fills it with `--issues` issues (every 10th with two comments, so the
 * comment fetch is exercised), and runs a first full sync per run into a fresh temp libSQL file through the real
 * composition root (`memory.connectors.sync`, lexical + the default static embedder). Prints records per second for
 * each run and the median, then the time of a second, no-change sync (the incremental `since` path plus the
 * reconcile sweep's full listing). Quote figures as measured on a shared machine.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseConfig } from "../src/config/parse-config.ts";
import { openMemory } from "../src/memory.ts";
import { connectorFiles } from "../src/runtime/private-file.ts";
import { readSecretFile } from "../src/runtime/platform.ts";
import { loadEmbedder } from "../src/runtime/model-loader.ts";
import { appKeyPair, startFakeGithub } from "../test/connectors/_fake-github.ts";
import { tempDir } from "../test/_helpers/memory.ts";

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg("--issues", 10_000);
const RUNS = arg("--runs", 3);
const REPO = "bench/repo";
const words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon".split(" ");
const text = (n: number, len: number) => Array.from({ length: len }, (_, k) => words[(n * 7 + k * 13) % words.length]).join(" ");

const rates: number[] = [];
for (let run = 0; run < RUNS; run++) {
  const keys = appKeyPair();
  let clock = new Date();
  const gh = await startFakeGithub({ publicKey: keys.publicKey, appId: "1", installId: "2", repo: REPO, now: () => clock });
  for (let n = 1; n <= N; n++) {
    const ts = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString().replace(/\.\d+Z$/, "Z");
    gh.issues.set(n, {
      number: n, title: `Issue ${n}: ${text(n, 5)}`, body: `${text(n, 60)} (issue ${n})`, state: n % 3 ? "open" : "closed",
      labels: n % 2 ? ["bug"] : ["feature", "ui"], updated_at: ts,
      comments: n % 10 === 0 ? [{ body: text(n + 1, 20), login: "a", created_at: ts }, { body: text(n + 2, 20), login: "b", created_at: ts }] : [],
    });
  }
  const dir = tempDir("cairn-bench-conn-");
  writeFileSync(join(dir, "app.pem"), keys.pem, { mode: 0o600 });
  const config = parseConfig({
    CAIRN_DB_PATH: join(dir, "cairn.db"), CAIRN_CONFIG_DIR: join(dir, "config"), CAIRN_OUTBOUND_ALLOW_LOOPBACK: "1", CAIRN_MAX_DOCS: String(N * 4),
  });
  clock = new Date();
  const memory = await openMemory(config, {
    rssBytes: () => process.memoryUsage().rss, readSecretFile, connectorFiles, embedder: await loadEmbedder(config), clock: () => clock,
  });
  await memory.connectors.register({
    kind: "github", instance: "bench", config: { api_base_url: gh.origin, app_id: "1", installation_id: "2", key_file: join(dir, "app.pem"), repos: [REPO] },
  });
  const t0 = performance.now();
  const s = await memory.connectors.sync({ kind: "github", instance: "bench" });
  const sec = (performance.now() - t0) / 1000;
  if (s.state !== "idle" || s.created !== N) throw new Error(`sync failed: ${JSON.stringify(s)}`);
  rates.push(N / sec);
  clock = new Date(clock.getTime() + 301_000);
  const t1 = performance.now();
  const again = await memory.connectors.sync({ kind: "github", instance: "bench" });
  const sec2 = (performance.now() - t1) / 1000;
  if (again.state !== "idle") throw new Error(`resync failed: ${again.error}`);
  console.log(`run ${run + 1}: ${N} issues, ${s.pages} pages, ${sec.toFixed(1)} s, ${(N / sec).toFixed(0)} records/s; no-change resync ${sec2.toFixed(1)} s (${again.unchanged} unchanged, ${again.created} new)`);
  await memory.close();
  await gh.close();
}
rates.sort((a, b) => a - b);
console.log(`| issues | runs | records/s median | range |\n|---|---|---|---|\n| ${N} | ${RUNS} | ${rates[Math.floor(rates.length / 2)]!.toFixed(0)} | ${rates[0]!.toFixed(0)}–${rates[rates.length - 1]!.toFixed(0)} |`);
