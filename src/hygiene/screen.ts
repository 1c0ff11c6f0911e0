/**
 * The injection screen (SPEC §1 "Trust rules"): the single seam that
 * decides `clean`, `quarantine` or `reject` for a text, deterministically
 * and without a model. Rules read the folded view (invisible characters
 * stripped, NFKC, look-alikes folded), so the strip can only add evidence:
 * a verdict never moves back toward `clean` because of it. A hidden payload
 * in the original (tag characters, a zero-width run, chained selectors) is
 * itself a signal; a stray invisible character is evidence only beside an
 * attack (`_screen-hidden.ts`, issue 36).
 *
 * Each firing family adds its weight once; the score is the sum, capped at
 * 1. `quarantine` from 0.5, `reject` at 1: one strong family (e.g. an
 * instruction override, 0.8) quarantines; families that together reach 1
 * (an override plus an exfiltration request), or tag-block smuggling
 * alone, reject. Corroborating families (role-play wording, stray
 * invisible characters) add their weight only when the others already
 * quarantine: they can move Quarantine to Reject, never Clean to Quarantine.
 */
import { canonicalForScreen } from "./_screen-canon.ts";
import { foldForScreen, hasCyrillic, transliterateCyrillic } from "./_screen-fold.ts";
import { PHRASE_RULES } from "./_screen-rules.ts";
import { compileScan } from "./_screen-scan.ts";
import { scanHidden } from "./_screen-hidden.ts";
import { decodePayloads, exfiltrationCode, longestFlood } from "./_screen-signals.ts";
import { hasInvisible } from "./invisible-chars.ts";

/** The three outcomes of SPEC §1, lowercase. */
export type Verdict = "clean" | "quarantine" | "reject";

/** A screen result: the verdict, the families that fired (sorted), and the score in [0, 1]. */
export interface ScreenResult {
  verdict: Verdict;
  reasons: string[];
  score: number;
}

/** Score at which a text is quarantined. */
export const QUARANTINE_AT = 0.5;
/** Score at which a text is rejected. */
export const REJECT_AT = 1;
/** Weights of the structural signals (the phrase rules carry their own). */
export const SIGNAL_WEIGHTS = {
  hidden_characters: 0.5,
  tag_smuggling: 1,
  token_flood: 0.5,
  encoded_payload: 0.5,
  dan_persona: 0.5,
} as const;
/** Repetitions of one short unit that count as a flood. */
export const FLOOD_MIN = 30;

const MAX_DECODED = 16;
const INDIRECT_WEIGHT = PHRASE_RULES.find((r) => r.id === "indirect_instruction")!.weight;
const NONE: ReadonlySet<string> = new Set();

// Every rule's patterns in one scan (src/hygiene/_screen-scan.ts): same hits as testing each pattern in turn.
const RULE_OF = PHRASE_RULES.flatMap((rule) => rule.patterns.map(() => rule));
const SCAN = compileScan(PHRASE_RULES.flatMap((rule) => rule.patterns));

function phraseHits(folded: string, into: Map<string, number>): void {
  SCAN.run(folded, (i) => into.has(RULE_OF[i].id), (i) => into.set(RULE_OF[i].id, RULE_OF[i].weight));
}

/**
 * Every family that fires for a text, with the weight it adds (the input of `screen`'s score). `without` drops
 * families before the corroborating ones are weighed (the eval's ablations).
 */
export function screenHits(text: string, without: ReadonlySet<string> = NONE): Map<string, number> {
  const hits = new Map<string, number>();
  const folded = foldForScreen(text);
  // The rules read the canonical view: typos, doubled letters, joins and hyphens undone (_screen-canon.ts).
  phraseHits(canonicalForScreen(folded), hits);
  // An invisible character may join words or separate them; read both ways, so stripping never hides a phrase.
  if (hasInvisible(text)) phraseHits(canonicalForScreen(foldForScreen(text, " ")), hits);
  // English spelled by sound in Cyrillic letters ("Игноре алл превиоус инструцтионс"): the look-alike fold misses it.
  if (hasCyrillic(text)) phraseHits(canonicalForScreen(foldForScreen(transliterateCyrillic(text))), hits);
  if (!hits.has("indirect_instruction") && exfiltrationCode(folded)) hits.set("indirect_instruction", INDIRECT_WEIGHT);

  const hidden = scanHidden(text);
  if (hidden.payload > 0) hits.set("hidden_characters", SIGNAL_WEIGHTS.hidden_characters);
  if (/[A-Za-z]/.test(hidden.tagText)) hits.set("tag_smuggling", SIGNAL_WEIGHTS.tag_smuggling);

  if (longestFlood(folded) >= FLOOD_MIN) hits.set("token_flood", SIGNAL_WEIGHTS.token_flood);
  // The all-caps persona name of the "Do Anything Now" family; "Dan" the person stays clean.
  if (/\bDAN\b/.test(text) && /\b(?:mode|can do anything|do anything now|jailbreak|stay in character|as DAN)\b/i.test(text)) {
    hits.set("dan_persona", SIGNAL_WEIGHTS.dan_persona);
  }

  const decoded = decodePayloads(text).slice(0, MAX_DECODED);
  if (hidden.tagText !== "") decoded.push(hidden.tagText);
  decoded.push(...hidden.decoded.slice(0, MAX_DECODED));
  for (const d of decoded) {
    const inner = new Map<string, number>();
    phraseHits(canonicalForScreen(foldForScreen(d)), inner);
    if (inner.size > 0) hits.set("encoded_payload", SIGNAL_WEIGHTS.encoded_payload + Math.max(...inner.values()));
  }

  for (const id of without) hits.delete(id);
  corroborate(hits, hidden.stray > 0 && !without.has("hidden_characters"));
  return hits;
}

/**
 * Role-play wording ("I want you to act as …") opens ordinary tutoring and game prompts, which often fix the
 * reply's format too, and stray invisible characters fill ordinary web text (issue 36 item 5). Each is evidence
 * only beside families that already quarantine: then it adds its weight (a stray character as `hidden_characters`),
 * otherwise it is dropped. Neither counts toward the other.
 */
function corroborate(hits: Map<string, number>, stray: boolean): void {
  const base = [...hits].reduce((sum, [id, w]) => (id === "role_play" ? sum : sum + w), 0);
  if (Math.round(base * 100) / 100 < QUARANTINE_AT) {
    hits.delete("role_play");
    return;
  }
  if (stray && !hits.has("hidden_characters")) hits.set("hidden_characters", SIGNAL_WEIGHTS.hidden_characters);
}

/** Turns family hits into a result: score = sum of weights capped at 1, then the thresholds. */
export function verdictFromHits(hits: ReadonlyMap<string, number>): ScreenResult {
  const sum = [...hits.values()].reduce((a, b) => a + b, 0);
  const score = Math.min(1, Math.round(sum * 100) / 100);
  const verdict: Verdict = score >= REJECT_AT ? "reject" : score >= QUARANTINE_AT ? "quarantine" : "clean";
  return { verdict, reasons: [...hits.keys()].sort(), score };
}

/** Screens one text; pure and deterministic. */
export function screen(text: string): ScreenResult {
  return verdictFromHits(screenHits(text));
}
