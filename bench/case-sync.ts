/**
 * Case-connector sync throughput (issue 15 "a sync throughput figure … against the fake at 10,000 issues"):
 * `npx tsx bench/case-sync.ts [--kind zendesk|freshdesk|jira|custom] [--cases N] [--runs R]`.
 *
 * Each run opens a fresh libSQL file through the real composition root, starts the loopback vendor fake of
 * `test/connectors/fakes/` with N cases (three comments each; export/list pages of 1,000 for Zendesk, 100 for
 * Freshdesk, 50 for Jira and the shim, as the vendors serve them), and times one `memory.connectors.sync` (every
 * list page, every case's comments, `applyCase` with its proposal, the page commits and the reconcile sweep).
 * Prints cases per second per run and the median with its range.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseConfig } from "../src/config/parse-config.ts";
import { openMemory } from "../src/memory.ts";
import { connectorFiles } from "../src/runtime/private-file.ts";
import type { Fake } from "../test/connectors/fakes/_fake.ts";
import { SHIM_TOKEN, startShimFake } from "../test/connectors/fakes/custom-shim-fake.ts";
import { FD_KEY, startFreshdeskFake } from "../test/connectors/fakes/freshdesk-fake.ts";
import { JIRA_EMAIL, JIRA_TOKEN, startJiraFake } from "../test/connectors/fakes/jira-fake.ts";
import { startZendeskFake, ZD_EMAIL, ZD_TOKEN } from "../test/connectors/fakes/zendesk-fake.ts";

const args = process.argv.slice(2);
const opt = (n: string, d: string) => (args.includes(n) ? args[args.indexOf(n) + 1]! : d);
const KIND = opt("--kind", "zendesk") as "zendesk" | "freshdesk" | "jira" | "custom";
const CASES = Number(opt("--cases", "10000"));
const RUNS = Number(opt("--runs", "3"));

async function start(dir: string): Promise<{ fake: Fake; config: Record<string, unknown> }> {
  const secret = (name: string, text: string) => {
    const p = join(dir, name);
    writeFileSync(p, `${text}\n`, { mode: 0o600 });
    return p;
  };
  if (KIND === "zendesk") {
    const fake = await startZendeskFake(CASES, 1000);
    return { fake, config: { base_url: fake.origin, org: "acme", email: ZD_EMAIL, token_file: secret("t", ZD_TOKEN) } };
  }
  if (KIND === "freshdesk") {
    const fake = await startFreshdeskFake(CASES, 100);
    return { fake, config: { base_url: fake.origin, org: "acme", api_key_file: secret("t", FD_KEY) } };
  }
  if (KIND === "jira") {
    const fake = await startJiraFake(CASES, 50);
    return { fake, config: { base_url: fake.origin, org: "acme", email: JIRA_EMAIL, token_file: secret("t", JIRA_TOKEN) } };
  }
  const fake = await startShimFake(CASES, 50);
  return { fake, config: { base_url: fake.origin, auth_type: "bearer", case_list_path: "/v1/cases", case_detail_path: "/v1/cases/{id}", source: "helpdesk", token_file: secret("t", SHIM_TOKEN) } };
}

async function run(): Promise<{ perSec: number; seconds: number; requests: number }> {
  const dir = mkdtempSync(join(tmpdir(), "cairn-case-bench-"));
  const cfg = join(dir, "cfg");
  mkdirSync(join(cfg, "connectors"), { recursive: true, mode: 0o700 });
  const { fake, config } = await start(join(cfg, "connectors"));
  writeFileSync(join(cfg, "connectors", `${KIND}-acme.json`), JSON.stringify(config), { mode: 0o600 });
  const memory = await openMemory(parseConfig({ CAIRN_DB_PATH: join(dir, "cairn.db"), CAIRN_CONFIG_DIR: cfg, CAIRN_OUTBOUND_ALLOW_LOOPBACK: "1" }), {
    rssBytes: () => process.memoryUsage().rss, connectorFiles, connectorSleep: async () => {},
  });
  try {
    const t0 = performance.now();
    const out = await memory.connectors.sync({ kind: KIND, instance: "acme" });
    const seconds = (performance.now() - t0) / 1000;
    if (out.state !== "idle" || out.cases_applied !== CASES) throw new Error(`sync did not apply every case: ${JSON.stringify(out)}`);
    return { perSec: CASES / seconds, seconds, requests: fake.seen.length };
  } finally {
    await memory.close();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const results = [];
for (let i = 0; i < RUNS; i++) {
  const r = await run();
  results.push(r);
  console.log(`run ${i + 1}: ${CASES} ${KIND} cases in ${r.seconds.toFixed(1)} s = ${r.perSec.toFixed(0)} cases/s (${r.requests} vendor requests)`);
}
const sorted = results.map((r) => r.perSec).sort((a, b) => a - b);
console.log(`median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(0)} cases/s (range ${sorted[0]!.toFixed(0)}–${sorted.at(-1)!.toFixed(0)}), ${RUNS} runs, shared 2-core machine`);
