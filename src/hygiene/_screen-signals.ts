/**
 * The structural signals of the injection screen, beside the phrase rules
 * and the hidden-character scan (`_screen-hidden.ts`): token floods (long
 * runs of a repeated short unit that push a defence out of a model's
 * attention), encoded payloads (base64, hex, binary octets) decoded for
 * re-screening, and planted exfiltration snippets.
 */

const LETTER = /\p{L}/u;
// Dot leaders and rules (`. . . .`, `- - -`, `• •`) are layout, not a flood.
const LEADER = /^[.\-=_*•·~…#/|+]+$/u;

/**
 * Longest run, in units, of a repeated cycle of one to four whitespace
 * separated tokens of at most six characters (`ö ö ö`, `) ] } ) ] }`; dot
 * leaders and rules made of `.`, `-`, `=`, `•`, ... do not count), or
 * of one repeated letter (`ööööö`; a line of `-`, `=` or `✶` is decoration),
 * or of a glued unit of two to sixteen characters (`)]})]}`, `abcabc`).
 */
export function longestFlood(folded: string): number {
  let best = 0;
  const tokens = folded.split(/\s+/).filter((t) => t !== "");
  for (let p = 1; p <= 4; p++) {
    let run = 0;
    for (let i = p; i < tokens.length; i++) {
      if (tokens[i] === tokens[i - p] && tokens[i].length <= 6 && !LEADER.test(tokens[i])) {
        run++;
        best = Math.max(best, Math.floor((run + p) / p));
      } else run = 0;
    }
  }
  best = Math.max(best, longestLetterRun(folded));
  // A unit of two to sixteen characters, at least two of them different, glued into a run (`)]})]}`):
  // a linear scan per period instead of a backreference regex.
  for (const tok of tokens) {
    if (tok.length < 40) continue;
    for (let u = 2; u <= 16; u++) {
      let run = 0;
      let mixed = false; // whether the repeated unit has two different characters, decided once per run
      for (let i = u; i < tok.length; i++) {
        run = tok[i] === tok[i - u] ? run + 1 : 0;
        if (run === 19 * u) mixed = new Set(tok.slice(i - u + 1, i + 1)).size >= 2;
        if (run >= 19 * u && mixed) best = Math.max(best, Math.floor((run + u) / u));
      }
    }
  }
  return best;
}

// The longest run of one repeated letter when it reaches 40 code points, else 0: what /(\p{L})\1{39,}/gu finds,
// in one linear pass.
function longestLetterRun(text: string): number {
  let best = 0;
  let prev = -1;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    run = cp === prev ? run + 1 : 1;
    prev = cp;
    if (run >= 40 && run > best && LETTER.test(String.fromCodePoint(cp))) best = run;
  }
  return best;
}

const B64 = /(?<![A-Za-z0-9+/=_-])[A-Za-z0-9+/_-]{16,}={0,2}(?![A-Za-z0-9+/=_-])/g;
const HEX = /(?<![0-9a-fA-F])(?:[0-9a-fA-F]{2}[ :]?){12,}(?![0-9a-fA-F])/g;
const BINARY = /(?<![01])(?:[01]{8}[ ,]?){4,}(?![01])/g;
const printable = (s: string) => s.length > 0 && /^[\x20-\x7e\t\n\r]+$/.test(s);

function fromBase64(s: string): string {
  try {
    const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/").replace(/=+$/, "").padEnd(Math.ceil(s.length / 4) * 4, "="));
    return bin;
  } catch {
    return "";
  }
}

/**
 * Which payload patterns can match at all, from one pass over the text: B64 needs a run of 16 characters of its
 * class with both an upper- and a lower-case letter (its matches are whole runs, kept only when mixed-case), HEX 24 hex digits in a run of hex digits, spaces and colons, BINARY 32 binary digits in a run of 0, 1,
 * spaces and commas. Skipping a pattern these rule out never changes what it finds.
 */
function payloadRuns(text: string): { b64: boolean; hex: boolean; binary: boolean } {
  let b64 = 0, hex = 0, bin = 0;
  let upper = false, lower = false;
  const r = { b64: false, hex: false, binary: false };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const digit = c >= 48 && c <= 57;
    const hexLetter = (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
    const letter = (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
    if (digit || letter || c === 43 || c === 47 || c === 95 || c === 45) {
      b64++;
      if (c >= 65 && c <= 90) upper = true;
      else if (c >= 97 && c <= 122) lower = true;
    } else {
      b64 = 0;
      upper = lower = false;
    }
    hex = digit || hexLetter ? hex + 1 : c === 32 || c === 58 ? hex : 0;
    bin = c === 48 || c === 49 ? bin + 1 : c === 32 || c === 44 ? bin : 0;
    // A B64 match is a whole run of its class, used only when it mixes cases.
    if (b64 >= 16 && upper && lower) r.b64 = true;
    if (hex >= 24) r.hex = true;
    if (bin >= 32) r.binary = true;
  }
  return r;
}

/** Decodes base64, hex and binary-octet runs that turn into readable ASCII text (at least 8 letters). */
export function decodePayloads(text: string): string[] {
  const out: string[] = [];
  const need = payloadRuns(text);
  const keep = (s: string) => {
    if (printable(s) && (s.match(/[A-Za-z]/g) ?? []).length >= 8) out.push(s);
  };
  if (need.b64) for (const m of text.matchAll(B64)) if (/[A-Z]/.test(m[0]) && /[a-z]/.test(m[0])) keep(fromBase64(m[0]));
  if (need.hex) for (const m of text.matchAll(HEX)) keep(m[0].replace(/[ :]/g, "").replace(/../g, (h) => String.fromCharCode(parseInt(h, 16))));
  if (need.binary) for (const m of text.matchAll(BINARY)) keep(m[0].replace(/[ ,]/g, "").replace(/.{8}/g, (b) => String.fromCharCode(parseInt(b, 2))));
  return out;
}

// A secret or local data a planted snippet would send away.
// Sources, not words: a note saying "with the team token header" is not a planted snippet.
const SENSITIVE = /open\(|clipboard|paste\(|\/etc\/passwd|\/etc\/shadow|private[_ ]?key|id_rsa|\.ssh\/|document\.cookie|os\.environ|getenv\(|files\s*=|localstorage|keychain|\.aws\/credentials/;
const SENDS = /requests\.post\(|urllib\.request\.urlopen\(|httpx\.post\(|curl\b[^\n]{0,80}(?:-x["',\s]*post|--data|-d\s|-f\s|--upload-file|-t\s)|fetch\([^)]{0,200}method\s*:\s*["']post|navigator\.sendbeacon\(/;
const CODE_HINTS = [".post(", "curl ", "fetch(", "sendbeacon(", "urlopen(", "/bin/", "dup2(", "/dev/tcp/", "nc -"];
const SHELL = /\/bin\/(?:ba)?sh["'\s,]+-i\b|os\.dup2\(|\bnc\s+(?:-\w+\s+)*-e\b|bash\s+-i\s*>&|\/dev\/tcp\//;

/**
 * True when folded text carries an exfiltration snippet: code that sends a
 * secret or local data (files, clipboard, credentials, cookies) to a URL, or
 * a reverse shell (issue 26, indirect instructions). A bare API call does not
 * count: procedural memories document those.
 */
export function exfiltrationCode(folded: string): boolean {
  // Cheap gate: every SENDS or SHELL form holds one of these literals.
  if (!CODE_HINTS.some((h) => folded.includes(h))) return false;
  return SHELL.test(folded) || (SENDS.test(folded) && SENSITIVE.test(folded));
}
