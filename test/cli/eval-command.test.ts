/**
 * `cairn eval` (SPEC §4.12; issue "Recall engine"): a BEIR directory or a
 * LoCoMo file goes through a temporary store and the served recall; the
 * figures print, and `--floor` turns a miss into a non-zero exit.
 */
import { execFile } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { tempDir } from "../_helpers/memory.ts";

const run = promisify(execFile);
const root = resolve(new URL("../..", import.meta.url).pathname);
const bin = join(root, "bin", "cairn.mjs");

async function cairn(args: string[]) {
  try {
    const r = await run("node", [bin, ...args], { cwd: root, env: process.env, timeout: 120_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (e) {
    const x = e as { code: number; stdout: string; stderr: string };
    return { code: x.code, stdout: x.stdout, stderr: x.stderr };
  }
}

const jsonl = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join("\n");

/** Three queries: two answerable by their words, one whose judged document shares none of them. */
function beirDir(): string {
  const dir = tempDir("cairn-beir-");
  mkdirSync(join(dir, "qrels"));
  writeFileSync(join(dir, "corpus.jsonl"), jsonl([
    { _id: "d1", title: "Ledger", text: "The ledger service settles card payments nightly and writes a reconciliation report." },
    { _id: "d2", title: "Garden", text: "Tomatoes need deep watering twice a week during the hottest summer months." },
    { _id: "d3", title: "Rotation", text: "The on-call rotation changes every Monday; escalate to the duty manager after thirty minutes." },
    { _id: "d4", title: "Kitchen", text: "Sourdough bread needs a mature starter and a long cold proof overnight." },
  ]));
  writeFileSync(join(dir, "queries.jsonl"), jsonl([
    { _id: "q1", text: "when are card payments settled by the ledger" },
    { _id: "q2", text: "how often should tomatoes be watered in summer" },
    { _id: "q3", text: "quantum chromodynamics lattice gauge" },
  ]));
  writeFileSync(join(dir, "qrels", "train.tsv"), "query-id\tcorpus-id\tscore\nq1\td1\t1\nq2\td2\t1\nq3\td4\t1\n");
  return dir;
}

describe("cairn eval", { timeout: 300_000 }, () => {
  it("scores a BEIR directory as JSON and exits non-zero only under a floor", async () => {
    const dir = beirDir();
    const ok = await cairn(["eval", dir, "--json", "--floor", "r5=0.6"]);
    expect(ok.code, ok.stderr).toBe(0);
    const r = JSON.parse(ok.stdout);
    expect(r).toMatchObject({ dataset: "beir", docs: 4, queries: 3, mode: "fused", floors_failed: [] });
    // q1 and q2 find their document first; q3's document shares no word with it (recall@5 = 2/3 at best).
    expect(r.recall5).toBeGreaterThanOrEqual(2 / 3 - 1e-9);
    expect(r.recall5).toBeLessThan(1);
    expect(r.mrr).toBeGreaterThanOrEqual(2 / 3 - 1e-9);
    const under = await cairn(["eval", dir, "--floor", "r5=0.9", "--floor", "mrr=0.1"]);
    expect(under.code).toBe(1);
    // Every figure beside lexical-only and SQLite FTS5 over the same chunks (issue 36).
    expect(under.stdout).toContain("| Cairn default | 3 |");
    expect(under.stdout).toContain("| Cairn lexical-only | 3 |");
    expect(under.stdout).toContain("| SQLite FTS5, same chunks | 3 |");
    expect(under.stdout).toMatch(/FLOOR FAILED: r5 0\.\d{4} is under the floor 0\.9/);
    expect(under.stdout).not.toContain("FLOOR FAILED: mrr");
  });

  it("scores a LoCoMo file: evidence recall, categories, and category 5 counted for abstention only", async () => {
    const dir = tempDir("cairn-locomo-");
    const file = join(dir, "conv.json");
    writeFileSync(file, JSON.stringify([{
      sample_id: "conv-x",
      conversation: {
        speaker_a: "Alice", speaker_b: "Bob",
        session_1_date_time: "1:56 pm on 8 May, 2023",
        session_1: [
          { speaker: "Alice", dia_id: "D1:1", text: "I adopted a puppy named Rex from the shelter" },
          { speaker: "Bob", dia_id: "D1:2", text: "Nice! I went hiking on the mountain trail" },
        ],
        session_2_date_time: "10:00 am on 9 May, 2023",
        session_2: [{ speaker: "Alice", dia_id: "D2:1", text: "Rex learned to sit and roll over" }],
      },
      qa: [
        { question: "What is the name of Alice's puppy?", answer: "Rex", evidence: ["D1:1"], category: 4 },
        { question: "Where did Bob go hiking?", answer: "a mountain trail", evidence: ["D1:2"], category: 1 },
        { question: "What did Bob adopt?", adversarial_answer: "a puppy", evidence: ["D1:1"], category: 5 },
      ],
    }]));
    const out = await cairn(["eval", file, "--json", "--restart"]);
    expect(out.code, out.stderr).toBe(0);
    const r = JSON.parse(out.stdout);
    expect(r).toMatchObject({ dataset: "locomo", docs: 3, queries: 2, recall10: 1, adversarial: { queries: 1 } });
    expect(Object.keys(r.byCategory).sort()).toEqual(["1", "4"]);
    // --restart: the same queries on the store closed and reopened on its database, after the baselines.
    expect(r.runs.map((x: { run: string }) => x.run)).toEqual(["fused", "lexical", "fts5", "restart"]);
    const [fused, , fts5, restart] = r.runs;
    expect(restart.recall10).toBe(fused.recall10);
    expect(fts5.queries).toBe(2);
  });

  it("refuses a path that is neither, and a malformed floor, with a message", async () => {
    const missing = await cairn(["eval", join(tempDir(), "nothing-here")]);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("neither a BEIR directory");
    const bad = await cairn(["eval", beirDir(), "--floor", "r7=2"]);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("Floor 'r7=2'");
  });
});
