/**
 * `cairn kb build` figure (SPEC §4.12; issue 17): `npx tsx bench/kb-build.ts [--articles 5000] [--translated 1000] [--runs 3]`.
 *
 * Seeds a fresh libSQL file with `--articles` KCS articles (generated prose, ~120 words each; every article at
 * revision 1, a tenth of them at revision 2) and `--translated` German translations, written straight through the
 * store's KCS functions in one transaction (the approval path is measured in src/review/README.md, not here). Then
 * runs the same build as `cairn kb build --domain global --base-url https://kb.example.org/` `--runs` times into
 * fresh directories and prints each wall time, the median and range, the file count and the total bytes. The
 * builds are checked to be byte-identical.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { kbBuildCommand } from "../src/cli/kb-commands.ts";
import { parseConfig } from "../src/config/parse-config.ts";
import { openMemory } from "../src/memory.ts";
import { makeTempDir } from "../src/runtime/platform.ts";
import { insertArticle, insertRevision, setCurrentRevision, upsertTranslation } from "../src/store/kcs.ts";

const arg = (name: string, dflt: number) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg("--articles", 5000);
const TRANSLATED = Math.min(N, arg("--translated", 1000));
const RUNS = arg("--runs", 3);

// Deterministic generated prose over a 5,000-word vocabulary.
let seed = 42;
const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
const vocab = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}${"aeiou"[i % 5]}${"nrstl"[(i >> 3) % 5]}`);
const words = (n: number) => Array.from({ length: n }, () => vocab[Math.floor(rnd() ** 2 * vocab.length)]).join(" ");

function digest(dir: string): { files: number; bytes: number; sha: string } {
  const h = createHash("sha256");
  let files = 0;
  let bytes = 0;
  const visit = (d: string) => {
    for (const n of readdirSync(d).sort()) {
      const p = join(d, n);
      if (statSync(p).isDirectory()) visit(p);
      else {
        const b = readFileSync(p);
        files++;
        bytes += b.length;
        h.update(relative(dir, p)).update(b);
      }
    }
  };
  visit(dir);
  return { files, bytes, sha: h.digest("hex") };
}

const dir = await makeTempDir("cairn-kb-bench-");
const memory = await openMemory(parseConfig({ CAIRN_DB_PATH: join(dir, "kb.db") }), { rssBytes: () => process.memoryUsage().rss });
const now = "2026-11-25T12:00:00.000Z";
const t0 = performance.now();
await memory.db.write(async (tx) => {
  for (let i = 1; i <= N; i++) {
    const id = await insertArticle(tx, { domain: "global", locale: "en", caseRef: `crm:zendesk:bench:${i}`, now });
    const title = `Article ${i}: ${words(6)}`;
    const body = `${words(60)}\n\n${words(60)}`;
    await insertRevision(tx, { articleId: id, revision: 1, title, body, contentSha256: createHash("sha256").update(title + body).digest("hex"), createdAt: now });
    if (i % 10 === 0) {
      const b2 = `${body}\n\n${words(20)}`;
      await insertRevision(tx, { articleId: id, revision: 2, title, body: b2, contentSha256: createHash("sha256").update(title + b2).digest("hex"), createdAt: now });
      await setCurrentRevision(tx, id, 2, now);
    }
    if (i <= TRANSLATED) await upsertTranslation(tx, { articleId: id, locale: "de", basedRevision: 1, title: `Artikel ${i}: ${words(6)}`, body: words(120), proposalId: i, approvedAt: now });
  }
});
console.log(`seeded ${N} articles + ${TRANSLATED} de translations in ${Math.round(performance.now() - t0)} ms`);

const times: number[] = [];
const shas = new Set<string>();
let last = { files: 0, bytes: 0, sha: "" };
for (let r = 0; r < RUNS; r++) {
  const out = join(dir, `site-${r}`);
  const s = performance.now();
  const res = await kbBuildCommand(memory, { domain: "global", out, baseUrl: "https://kb.example.org/" });
  times.push(performance.now() - s);
  last = digest(out);
  shas.add(last.sha);
  console.log(`run ${r + 1}: ${Math.round(times[r])} ms — ${res.lines[0]}`);
  rmSync(out, { recursive: true, force: true });
}
const sorted = [...times].sort((a, b) => a - b);
console.log(`\n| articles | pages | files | bytes | median ms | range ms | identical builds |`);
console.log(`|---|---|---|---|---|---|---|`);
console.log(`| ${N} (+${TRANSLATED} de) | ${N + TRANSLATED} | ${last.files} | ${last.bytes} | ${Math.round(sorted[Math.floor(sorted.length / 2)])} | ` +
  `${Math.round(sorted[0])}–${Math.round(sorted[sorted.length - 1])} | ${shas.size === 1 ? "yes" : "NO"} |`);
await memory.close();
rmSync(dir, { recursive: true, force: true });
