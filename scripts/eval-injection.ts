/**
 * Measures the injection screen (`src/hygiene/screen.ts`, SPEC §1) over
 * `../shared/data/prompt-injection/`: detection rate (verdict not `clean`)
 * on attacks and false-positive rate on benign rows, per dataset and per
 * half. Rules were tuned on the even half (0-based row index even); the odd
 * half is held out.
 *
 *   npx tsx scripts/eval-injection.ts [--misses] [--fps] [--half odd|even] [--without id,id] [--slice N]
 *
 * `--without` is an ablation: the named families are dropped before the
 * verdict is taken (e.g. `--without access_grant,grant_forcing` shows what
 * is caught without the Tensor Trust target phrase).
 *
 * Sets:
 * - hijacking: `hijacking_robustness_dataset.jsonl`, field `attack` (the
 *   attacker's input; `pre_prompt`/`post_prompt` are the defence);
 * - valid.json injections: rows with `label` 1; valid.json benign: `label` 0;
 * - NotInject one/two/three: benign prompts salted with trigger words;
 * - controls: SciFact abstracts, LoCoMo turns, the naughty strings;
 * - `fixtures/screen/`: hand-written benign role-play prompts, ordinary text
 *   with invisible characters, and generated hidden payloads (issue 36).
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { screenHits, type Verdict, verdictFromHits } from "../src/hygiene/screen.ts";
import { variant, VARIANT_KINDS } from "./_injection-variants.ts";
import { hiddenPayloads } from "../fixtures/screen/hidden-payloads.ts";

// `../shared/data` beside the repository; CAIRN_SHARED_DATA points elsewhere (a git worktree sits one level deeper).
const SHARED = process.env.CAIRN_SHARED_DATA ?? resolve(import.meta.dirname, "../../shared/data");
const DATA = join(SHARED, "prompt-injection");

interface Set {
  name: string;
  attack: boolean;
  texts: string[];
}

function load(): Set[] {
  const sets: Set[] = [];
  const hijack = readFileSync(join(DATA, "hijacking_robustness_dataset.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => (JSON.parse(l) as { attack: string }).attack);
  sets.push({ name: "hijacking (attacks)", attack: true, texts: hijack });
  const valid = JSON.parse(readFileSync(join(DATA, "valid.json"), "utf8")) as { prompt: string; label: number }[];
  sets.push({ name: "valid.json injections", attack: true, texts: valid.filter((r) => r.label === 1).map((r) => r.prompt) });
  sets.push({ name: "valid.json benign", attack: false, texts: valid.filter((r) => r.label === 0).map((r) => r.prompt) });
  for (const part of ["one", "two", "three"]) {
    const rows = JSON.parse(readFileSync(join(DATA, `NotInject_${part}.json`), "utf8")) as { prompt: string }[];
    sets.push({ name: `NotInject_${part} (benign)`, attack: false, texts: rows.map((r) => r.prompt) });
  }
  return sets;
}

/** Real benign text outside the injection sets, as an extra false-positive control (skipped when absent). */
function controls(): Set[] {
  const out: Set[] = [];
  const scifact = resolve(DATA, "../scifact/corpus.jsonl");
  if (existsSync(scifact)) {
    const docs = readFileSync(scifact, "utf8").split("\n").filter((l) => l.trim() !== "");
    out.push({ name: "control: SciFact abstracts", attack: false, texts: docs.map((l) => { const d = JSON.parse(l) as { title: string; text: string }; return `${d.title}\n${d.text}`; }) });
  }
  const locomo = resolve(DATA, "../locomo/locomo-dev.json");
  if (existsSync(locomo)) {
    const convs = JSON.parse(readFileSync(locomo, "utf8")) as { conversation: Record<string, unknown> }[];
    const turns: string[] = [];
    for (const c of convs) {
      for (const [k, v] of Object.entries(c.conversation)) {
        if (/^session_\d+$/.test(k) && Array.isArray(v)) for (const t of v as { text?: string }[]) if (t.text) turns.push(t.text);
      }
    }
    out.push({ name: "control: LoCoMo dialogue turns", attack: false, texts: turns });
  }
  const blns = resolve(DATA, "../unicode/blns.json");
  if (existsSync(blns)) out.push({ name: "control: naughty strings (blns)", attack: false, texts: JSON.parse(readFileSync(blns, "utf8")) as string[] });
  return out;
}

const FIXTURES = resolve(import.meta.dirname, "../fixtures/screen");

interface KindRow {
  kind: string;
  text: string;
}

/** The hand-written sets in `fixtures/screen/` (README there): benign role-play, ordinary text with invisible characters, hidden payloads. */
function fixtureSets(): { sets: Set[]; byKind: { name: string; attack: boolean; rows: KindRow[] }[] } {
  const roleplay = readFileSync(join(FIXTURES, "roleplay-benign.txt"), "utf8").split("\n").filter((l) => l.trim() !== "");
  const ordinary = JSON.parse(readFileSync(join(FIXTURES, "invisible-benign.json"), "utf8")) as KindRow[];
  const payloads = hiddenPayloads();
  return {
    sets: [
      { name: "fixture: benign role-play prompts", attack: false, texts: roleplay },
      { name: "fixture: ordinary text with invisible characters", attack: false, texts: ordinary.map((r) => r.text) },
      { name: "fixture: hidden payloads (attacks)", attack: true, texts: payloads.map((r) => r.text) },
    ],
    byKind: [{ name: "ordinary text with invisible characters", attack: false, rows: ordinary }, { name: "hidden payloads", attack: true, rows: payloads }],
  };
}

/** Flagged share per kind of the invisible-character fixtures. */
function kindTable(byKind: { name: string; attack: boolean; rows: KindRow[] }[], screen: (t: string) => { verdict: Verdict }): void {
  console.log("\nInvisible-character fixtures by kind: share not clean, and rejects\n");
  console.log("| set | kind | rows | not clean | reject |");
  console.log("|---|---|---|---|---|");
  for (const set of byKind) {
    const kinds = [...new Set(set.rows.map((r) => r.kind))];
    for (const kind of kinds) {
      const rows = set.rows.filter((r) => r.kind === kind).map((r) => screen(r.text).verdict);
      console.log(`| ${set.name} | ${kind} | ${rows.length} | ${pct1(rows.filter((v) => v !== "clean").length, rows.length)} | ${rows.filter((v) => v === "reject").length} |`);
    }
  }
}

const pct1 = (a: number, b: number) => (b === 0 ? "n/a" : `${((100 * a) / b).toFixed(1)}% (${a}/${b})`);

/** Caught share of generated variants of the hijacking attacks, per kind and half (scripts/_injection-variants.ts). */
function variantTable(texts: string[], screen: (t: string) => { verdict: Verdict }, misses: string | null): void {
  console.log("\nGenerated variants of the hijacking attacks: share not clean (a row counts when the kind applies to it)\n");
  console.log("| variant kind | variants | even half (tuning) | odd half (held out) | all | of originals caught, still caught |");
  console.log("|---|---|---|---|---|---|");
  let total = 0;
  let caughtAll = 0;
  for (const kind of VARIANT_KINDS) {
    const caught = [0, 0];
    const sizes = [0, 0];
    let origCaught = 0;
    let stillCaught = 0;
    texts.forEach((text, i) => {
      const v = variant(text, kind, i);
      if (v === undefined) return;
      const half = i % 2;
      sizes[half]++;
      const hit = screen(v).verdict !== "clean";
      if (hit) caught[half]++;
      if (screen(text).verdict !== "clean") {
        origCaught++;
        if (hit) stillCaught++;
      }
      const show = misses === "all" || (misses === "odd") === (half === 1);
      if (misses !== null && show && !hit) console.log("VMISS", kind, JSON.stringify(v.slice(0, 240)));
    });
    total += sizes[0] + sizes[1];
    caughtAll += caught[0] + caught[1];
    console.log(`| ${kind} | ${sizes[0] + sizes[1]} | ${pct1(caught[0], sizes[0])} | ${pct1(caught[1], sizes[1])} | ${pct1(caught[0] + caught[1], sizes[0] + sizes[1])} | ${pct1(stillCaught, origCaught)} |`);
  }
  console.log(`| all kinds | ${total} | | | ${pct1(caughtAll, total)} | |`);
}

/** Query side: what a refusal rule would refuse among real queries (false refusals) and among attacks (issue 26 item 6). */
function queryTable(sets: Set[], screen: (t: string) => { verdict: Verdict; reasons: string[] }): void {
  const queries: Set[] = [];
  const scifact = resolve(DATA, "../scifact/queries.jsonl");
  if (existsSync(scifact)) queries.push({ name: "SciFact queries", attack: false, texts: readFileSync(scifact, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => (JSON.parse(l) as { text: string }).text) });
  const locomo = resolve(DATA, "../locomo/locomo-dev.json");
  if (existsSync(locomo)) {
    const convs = JSON.parse(readFileSync(locomo, "utf8")) as { qa?: { question: string }[] }[];
    queries.push({ name: "LoCoMo questions", attack: false, texts: convs.flatMap((c) => (c.qa ?? []).map((q) => q.question)) });
  }
  const rows = [...queries, ...sets.filter((s) => s.name.startsWith("NotInject") || s.name.startsWith("valid") || s.name.startsWith("hijacking"))];
  console.log("\nQuery side: share refused by `/recall` (reject verdicts under the default; quarantine too under INJECTION_POLICY=reject; or Quarantine-level extraction under the default)\n");
  console.log("| query set | rows | reject verdicts | refused under the default (reject, or quarantine with prompt_exfiltration) | refused under `reject` |");
  console.log("|---|---|---|---|---|");
  for (const set of rows) {
    let rej = 0, exf = 0, q = 0;
    for (const t of set.texts) {
      const r = screen(t);
      if (r.verdict === "reject") rej++;
      if (r.verdict !== "clean") q++;
      if (r.verdict === "reject" || r.reasons.includes("prompt_exfiltration")) exf++; // = queryAction under the default
    }
    console.log(`| ${set.name} | ${set.texts.length} | ${pct1(rej, set.texts.length)} | ${pct1(exf, set.texts.length)} | ${pct1(q, set.texts.length)} |`);
  }
}

function main(): void {
  if (!existsSync(DATA)) {
    console.log(`Prompt-injection data not found at ${DATA}; skipping`);
    return;
  }
  const args = process.argv.slice(2);
  const onlyHalf = args.includes("--half") ? args[args.indexOf("--half") + 1] : null;
  // `--slice N` keeps the first N rows of each set (the CI smoke); full figures run without it.
  const slice = args.includes("--slice") ? Number(args[args.indexOf("--slice") + 1]) : undefined;
  const fixtures = fixtureSets();
  const sets = [...load(), ...controls(), ...fixtures.sets].map((s) => (slice ? { ...s, texts: s.texts.slice(0, slice) } : s));
  const without = new Set(args.includes("--without") ? args[args.indexOf("--without") + 1].split(",") : []);
  const screen = (text: string) => verdictFromHits(screenHits(text, without));
  if (without.size > 0) console.log(`Ablation: families dropped: ${[...without].join(", ")}\n`);
  const reasonCounts = new Map<string, { attack: number; benign: number; hijack: [number, number] }>();
  console.log("Injection screen: share of rows whose verdict is not clean (detection on attacks, false positives on benign rows)\n");
  console.log("| set | rows | even half (tuning) | odd half (held out) | all | quarantine | reject |");
  console.log("|---|---|---|---|---|---|---|");
  let notInjectRows = 0;
  let notInjectFlagged = 0;
  for (const set of sets) {
    const flagged = [0, 0];
    const sizes = [0, 0];
    const verdicts: Record<Verdict, number> = { clean: 0, quarantine: 0, reject: 0 };
    set.texts.forEach((text, i) => {
      const r = screen(text);
      const half = i % 2;
      sizes[half]++;
      verdicts[r.verdict]++;
      if (r.verdict !== "clean") flagged[half]++;
      for (const reason of r.reasons) {
        const c = reasonCounts.get(reason) ?? { attack: 0, benign: 0, hijack: [0, 0] };
        c[set.attack ? "attack" : "benign"]++;
        if (set === sets[0]) c.hijack[half]++;
        reasonCounts.set(reason, c);
      }
      const show = onlyHalf === null || (onlyHalf === "odd") === (half === 1);
      if (show && set.attack && r.verdict === "clean" && args.includes("--misses")) console.log("MISS", JSON.stringify(text.slice(0, 300)));
      if (show && !set.attack && r.verdict !== "clean" && args.includes("--fps")) console.log("FP", r.reasons.join(","), JSON.stringify(text.slice(0, 300)));
    });
    if (set.name.startsWith("NotInject")) {
      notInjectRows += set.texts.length;
      notInjectFlagged += flagged[0] + flagged[1];
    }
    const pct = (a: number, b: number) => (b === 0 ? "n/a" : `${((100 * a) / b).toFixed(1)}% (${a}/${b})`);
    console.log(
      `| ${set.name} | ${set.texts.length} | ${pct(flagged[0], sizes[0])} | ${pct(flagged[1], sizes[1])} | ${pct(flagged[0] + flagged[1], set.texts.length)} | ${verdicts.quarantine} | ${verdicts.reject} |`,
    );
  }
  console.log(`\nNotInject overall false-positive rate: ${((100 * notInjectFlagged) / notInjectRows).toFixed(1)}% (${notInjectFlagged}/${notInjectRows})`);
  kindTable(fixtures.byKind, screen);
  variantTable(sets[0].texts, screen, args.includes("--misses") ? onlyHalf ?? "all" : null);
  queryTable(sets, screen);
  const hijack = sets[0].texts;
  // Per half (even = tuning, odd = held out), then all.
  const caughtWithout = (ids: string[]) => {
    const c = [0, 0];
    hijack.forEach((t, i) => { if (verdictFromHits(screenHits(t, new Set([...ids, ...without]))).verdict !== "clean") c[i % 2]++; });
    const n = [Math.ceil(hijack.length / 2), Math.floor(hijack.length / 2)];
    return `even ${pct1(c[0], n[0])}, odd ${pct1(c[1], n[1])}, all ${pct1(c[0] + c[1], hijack.length)}`;
  };
  console.log(`\nHijacking set without the game-phrase families (access_grant, grant_forcing): ${caughtWithout(["access_grant", "grant_forcing"])}; with them: ${caughtWithout([])}`);
  console.log("\n| reason | hijacking even half (tuning) | hijacking odd half (held out) | rows among all attacks | rows among benign |");
  console.log("|---|---|---|---|---|");
  for (const [reason, c] of [...reasonCounts].sort((a, b) => b[1].attack - a[1].attack)) console.log(`| ${reason} | ${c.hijack[0]} | ${c.hijack[1]} | ${c.attack} | ${c.benign} |`);
}

main();
