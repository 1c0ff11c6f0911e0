/**
 * Measures the PII placeholder rules (`src/hygiene/find-pii.ts`, SPEC §1)
 * against the Presidio synthetic sentences in `../shared/data/pii/`, which
 * carry character spans per entity. Prints recall and precision per kind.
 *
 *   npx tsx scripts/eval-pii.ts
 *
 * Scoring:
 * - a gold span is recalled when findings of the same kind cover every
 *   letter, digit and `@` of it ("any kind" also accepts the other two
 *   placeholder kinds);
 * - a finding is a true positive when it overlaps a gold span of its kind;
 *   findings that overlap another gold entity (SSN, IBAN, date, ...) are
 *   counted apart, since they are still personal data;
 * - "in scope" restricts gold spans to what SPEC §1 defines: phones with 10
 *   to 15 digits (extension excluded), cards that are Luhn-valid with 13 to
 *   19 digits. Emails are all in scope.
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { findPii, type PiiKind, type PiiSpan } from "../src/hygiene/find-pii.ts";
import { luhnValid } from "../src/hygiene/luhn.ts";

const DATA = resolve(import.meta.dirname, "../../shared/data/pii");
const FILES = ["synth_dataset_v2.json", "generated_small.json"];
const KIND_OF: Record<string, PiiKind> = { EMAIL_ADDRESS: "email", PHONE_NUMBER: "phone", CREDIT_CARD: "card" };

interface Row {
  full_text: string;
  spans: { entity_type: string; entity_value: string; start_position: number; end_position: number }[];
}
interface Gold {
  kind: PiiKind | null;
  start: number;
  end: number;
  value: string;
}

function inScope(g: Gold): boolean {
  const digits = g.value.replace(/(?:x|ext\.?)\s?\d+$/i, "").replace(/\D/g, "");
  if (g.kind === "phone") return digits.length >= 10 && digits.length <= 15;
  if (g.kind === "card") return digits.length >= 13 && digits.length <= 19 && luhnValid(digits);
  return true;
}

function covered(text: string, g: Gold, found: PiiSpan[], anyKind: boolean): boolean {
  for (let i = g.start; i < g.end; i++) {
    if (!/[\p{L}\p{N}@]/u.test(text[i])) continue;
    if (!found.some((f) => (anyKind || f.kind === g.kind) && f.start <= i && i < f.end)) return false;
  }
  return true;
}

const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end;

function main(): void {
  if (!existsSync(DATA)) {
    console.log(`PII data not found at ${DATA}; skipping`);
    return;
  }
  const kinds: PiiKind[] = ["email", "phone", "card"];
  const t = Object.fromEntries(
    kinds.map((k) => [k, { gold: 0, hit: 0, hitAny: 0, goldIn: 0, hitIn: 0, found: 0, tp: 0, otherPii: 0, misses: [] as string[], fps: [] as string[] }]),
  );
  let sentences = 0;
  for (const file of FILES) {
    // `--slice N` keeps the first N rows of each file (the CI smoke); full figures run without it.
    const slice = process.argv.includes("--slice") ? Number(process.argv[process.argv.indexOf("--slice") + 1]) : undefined;
    const all = JSON.parse(readFileSync(join(DATA, file), "utf8")) as Row[];
    const rows = slice ? all.slice(0, slice) : all;
    for (const row of rows) {
      sentences++;
      const text = row.full_text;
      const gold: Gold[] = row.spans.map((s) => ({
        kind: KIND_OF[s.entity_type] ?? null, start: s.start_position, end: s.end_position, value: s.entity_value,
      }));
      const found = findPii(text);
      for (const g of gold) {
        if (!g.kind) continue;
        const c = t[g.kind];
        c.gold++;
        const hit = covered(text, g, found, false);
        if (hit) c.hit++;
        else c.misses.push(g.value);
        if (covered(text, g, found, true)) c.hitAny++;
        if (inScope(g)) {
          c.goldIn++;
          if (hit) c.hitIn++;
        }
      }
      for (const f of found) {
        const c = t[f.kind];
        c.found++;
        if (gold.some((g) => g.kind === f.kind && overlaps(g, f))) c.tp++;
        else if (gold.some((g) => overlaps(g, f))) c.otherPii++;
        else c.fps.push(text.slice(f.start, f.end));
      }
    }
  }
  const pct = (a: number, b: number) => (b === 0 ? "n/a" : (a / b).toFixed(3));
  console.log(`PII placeholder rules over ${sentences} sentences (${FILES.join(", ")})\n`);
  console.log("| kind | gold | recall | recall (any placeholder) | gold in SPEC scope | recall in scope | findings | precision | findings on other PII |");
  console.log("|---|---|---|---|---|---|---|---|---|");
  for (const k of kinds) {
    const c = t[k];
    console.log(
      `| ${k} | ${c.gold} | ${pct(c.hit, c.gold)} | ${pct(c.hitAny, c.gold)} | ${c.goldIn} | ${pct(c.hitIn, c.goldIn)} | ${c.found} | ${pct(c.tp, c.found)} | ${c.otherPii} |`,
    );
  }
  const scifact = resolve(DATA, "../scifact/corpus.jsonl");
  if (existsSync(scifact)) {
    // A control without labels: scientific abstracts hold numbers of every shape but almost no phones or cards.
    const counts: Record<PiiKind, number> = { email: 0, phone: 0, card: 0 };
    let chars = 0;
    const docs = readFileSync(scifact, "utf8").split("\n").filter((l) => l.trim() !== "").slice(0, process.argv.includes("--slice") ? 200 : undefined);
    for (const l of docs) {
      const d = JSON.parse(l) as { title: string; text: string };
      const text = `${d.title}\n${d.text}`;
      chars += text.length;
      for (const f of findPii(text)) counts[f.kind]++;
    }
    console.log(`\nControl: findings over ${docs.length} SciFact abstracts (${(chars / 1e6).toFixed(1)} M characters; review by hand, most are real contact details)\n`);
    console.log("| kind | findings |");
    console.log("|---|---|");
    for (const k of kinds) console.log(`| ${k} | ${counts[k]} |`);
  }
  if (process.argv.includes("--verbose")) {
    for (const k of kinds) {
      console.log(`\n${k} misses:`, t[k].misses);
      console.log(`${k} false positives:`, t[k].fps);
    }
  }
}

main();
