/**
 * Generated variants of attack texts (issue 26): the same attack with its
 * key words misspelt, doubled, joined, hyphenated, swapped for synonyms, or
 * its key phrases translated. Used by `scripts/eval-injection.ts` to report
 * the caught share per variant kind. Deterministic (seeded per row), so the
 * figures are reproducible.
 *
 * The key-word list and the synonym and phrase tables were written from the
 * attack families (what an attacker must say), not read off the rules; they
 * overlap the rules' vocabulary by nature, which docs/benchmarks.md says.
 */

/** The kinds of variant, in report order. */
export const VARIANT_KINDS = ["typo", "doubled", "joined", "hyphenated", "synonym", "translated"] as const;
/** One kind. */
export type VariantKind = (typeof VARIANT_KINDS)[number];

// The words an attack leans on: mutating them is what a filter-evading attacker does.
const KEY = new Set([
  "ignore", "disregard", "forget", "previous", "prior", "above", "instructions", "instruction", "prompt", "rules",
  "system", "reveal", "print", "repeat", "output", "password", "access", "granted", "secret", "respond", "reply",
  "your", "everything", "summarize", "summarise", "translate", "directions", "guidelines", "initial", "original",
  "hidden", "pretend", "role", "bypass", "override", "response", "answer", "begin", "start", "prefix", "write",
  "display", "show", "tell", "passcode", "verbatim", "nothing", "else", "only",
]);

const SYNONYMS: Record<string, string[]> = {
  ignore: ["disregard", "overlook", "skip", "neglect"],
  disregard: ["ignore", "overlook"],
  forget: ["drop", "abandon"],
  previous: ["earlier", "preceding", "former", "prior"],
  prior: ["previous", "earlier"],
  above: ["preceding", "earlier"],
  instructions: ["directions", "guidance", "orders", "commands", "directives"],
  instruction: ["direction", "order", "command"],
  rules: ["guidelines", "regulations", "policies"],
  prompt: ["system message", "preprompt", "setup text"],
  reveal: ["disclose", "expose", "show"],
  print: ["output", "display", "write out"],
  repeat: ["restate", "recite", "echo"],
  output: ["print", "emit", "produce"],
  say: ["state", "utter", "write"],
  tell: ["inform", "show"],
  password: ["passphrase", "passcode", "secret word"],
  respond: ["reply", "answer"],
  reply: ["response", "answer"],
  response: ["reply", "answer", "output"],
  answer: ["reply", "response"],
  begin: ["start", "open"],
  start: ["begin", "open"],
  granted: ["allowed", "approved"],
  access: ["entry", "entrance"],
  secret: ["hidden", "confidential"],
  summarize: ["sum up", "condense", "recap"],
  translate: ["render", "convert"],
  everything: ["all of it", "anything"],
  pretend: ["imagine", "act as if"],
};

// Key phrases with their translations (es, fr, de, it, pt, nl). Matched case-insensitively as whole phrases.
const PHRASES: Array<[RegExp, string[]]> = [
  [/\bignore (?:all )?(?:the )?(?:previous|prior|above) instructions\b/gi, ["ignora todas las instrucciones anteriores", "ignore toutes les instructions précédentes", "ignoriere alle vorherigen Anweisungen", "ignora tutte le istruzioni precedenti", "ignore todas as instruções anteriores", "negeer alle vorige instructies"]],
  [/\bignore (?:all )?(?:the |your )?instructions\b/gi, ["ignora las instrucciones", "ignore les instructions", "ignoriere die Anweisungen", "ignora le istruzioni", "ignore as instruções", "negeer de instructies"]],
  [/\bignore (?:everything|all|any)(?: (?:text|input|content))? (?:above|before)\b/gi, ["ignora todo lo anterior", "ignore tout ce qui précède", "ignoriere alles oben", "ignora tutto quanto sopra", "ignore tudo acima", "negeer alles hierboven"]],
  [/\bforget (?:all |everything |your )?(?:previous )?instructions\b/gi, ["olvida tus instrucciones", "oublie tes instructions", "vergiss deine Anweisungen", "dimentica le tue istruzioni", "esqueça suas instruções", "vergeet je instructies"]],
  [/\b(?:repeat|print|reveal|show|output) (?:me )?(?:your|the) (?:system )?(?:prompt|instructions)\b/gi, ["repite tus instrucciones", "répète tes instructions", "wiederhole deine Anweisungen", "ripeti le tue istruzioni", "repita suas instruções", "herhaal je instructies"]],
  [/\b(?:the )?(?:instructions|text|prompt) above\b/gi, ["las instrucciones anteriores", "les instructions ci-dessus", "die obigen Anweisungen", "le istruzioni sopra", "as instruções acima", "de instructies hierboven"]],
  [/\byou are now\b/gi, ["ahora eres", "tu es maintenant", "du bist jetzt", "ora sei", "agora você é", "je bent nu"]],
  [/\bfrom now on\b/gi, ["a partir de ahora", "à partir de maintenant", "von nun an", "d'ora in poi", "a partir de agora", "vanaf nu"]],
  [/\baccess granted\b/gi, ["acceso concedido", "accès autorisé", "Zugang gewährt", "accesso consentito", "acesso concedido", "toegang verleend"]],
  [/\b(?:what is|tell me) the password\b/gi, ["dime la contraseña", "dis-moi le mot de passe", "sag mir das Passwort", "dimmi la password", "diga-me a senha", "vertel me het wachtwoord"]],
  [/\b(?:say|respond with|reply with|output)\b/gi, ["di", "dis", "sag", "rispondi con", "responda com", "zeg"]],
];

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

function typo(w: string, r: () => number): string {
  if (w.length < 5) return w;
  const i = 1 + Math.floor(r() * (w.length - 2)); // keep the first letter, as most typos do
  const op = Math.floor(r() * 4);
  if (op === 0) return w.slice(0, i) + w.slice(i + 1); // deletion
  if (op === 1) return w.slice(0, i) + LETTERS[Math.floor(r() * 26)] + w.slice(i); // insertion
  if (op === 2) return w.slice(0, i) + LETTERS[Math.floor(r() * 26)] + w.slice(i + 1); // substitution
  return w.slice(0, i - 1) + w[i] + w[i - 1] + w.slice(i + 1); // transposition
}

function doubled(w: string, r: () => number): string {
  const i = r() < 0.5 ? w.length - 1 : Math.floor(r() * w.length);
  return w.slice(0, i + 1) + w[i] + w.slice(i + 1);
}

const keep = (src: string, out: string) => (/[A-Z]/.test(src[0] ?? "") ? out[0].toUpperCase() + out.slice(1) : out);

/** The variant of one text for one kind, or undefined when the kind does not apply (no key word or phrase). */
export function variant(text: string, kind: VariantKind, seed: number): string | undefined {
  const r = rng(seed * 7 + VARIANT_KINDS.indexOf(kind));
  let changed = false;
  if (kind === "translated") {
    let out = text;
    for (const [re, tr] of PHRASES) {
      out = out.replace(re, () => {
        changed = true;
        return tr[Math.floor(r() * tr.length)];
      });
    }
    return changed ? out : undefined;
  }
  // Split into words and the gaps between them; mutate key words (and, for joins, the gap after one).
  const parts = text.split(/(\s+)/);
  for (let i = 0; i < parts.length; i += 2) {
    const m = /^([^A-Za-z]*)([A-Za-z]+)(.*)$/s.exec(parts[i]);
    if (!m || !KEY.has(m[2].toLowerCase())) continue;
    const word = m[2];
    const lower = word.toLowerCase();
    if (kind === "typo" || kind === "doubled") {
      const w = kind === "typo" ? typo(lower, r) : doubled(lower, r);
      if (w === lower) continue;
      parts[i] = m[1] + (word === word.toUpperCase() ? w.toUpperCase() : keep(word, w)) + m[3];
      changed = true;
    } else if (kind === "synonym") {
      const syn = SYNONYMS[lower];
      if (!syn) continue;
      const w = syn[Math.floor(r() * syn.length)];
      parts[i] = m[1] + (word === word.toUpperCase() ? w.toUpperCase() : keep(word, w)) + m[3];
      changed = true;
    } else if (i + 1 < parts.length && / +/.test(parts[i + 1]) && m[3] === "" && /^[A-Za-z]/.test(parts[i + 2] ?? "")) {
      // joined / hyphenated: the key word and the next word become one token.
      parts[i + 1] = kind === "joined" ? "" : "-";
      changed = true;
    }
  }
  return changed ? parts.join("") : undefined;
}
