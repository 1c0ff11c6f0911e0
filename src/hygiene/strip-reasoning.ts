/**
 * Reasoning-tag strip for the ingest doors (SPEC §1 "Input hygiene"):
 * paired `<thinking>`, `<think>`, `<reasoning>`, `<reflection>` and
 * `<analysis>` blocks are removed with their content. Matching is
 * case-insensitive, open tags may carry attributes, a longer name such as
 * `<thinkx>` never matches, and an unclosed trailing block is dropped to
 * the end of the text.
 */

/** The reasoning tag names of SPEC §1, lowercase. */
export const REASONING_TAGS = ["thinking", "think", "reasoning", "reflection", "analysis"] as const;

// One token: an open tag (attributes allowed, quoted values may hold `>`;
// sizes bounded so a stray quote cannot make the scan quadratic), a
// self-closing tag or a close tag. The name must end at whitespace, `/`
// or `>`, so `<thinkx>` and `<think-x>` are not tokens (SPEC §1).
const TOKEN = new RegExp(
  String.raw`<(\/?)(${REASONING_TAGS.join("|")})(?=[\s/>])((?:[^>"']|"[^"]{0,256}"|'[^']{0,256}'){0,256})>`,
  "gi",
);

interface Token {
  start: number;
  end: number;
  name: string;
  kind: "open" | "close" | "self";
}

function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const closing = m[1] === "/";
    const rest = m[3];
    // `</think foo>` is not a valid close tag; treat it as literal text.
    if (closing && rest.trim() !== "") continue;
    const kind = closing ? "close" : /\/\s*$/.test(rest) ? "self" : "open";
    out.push({ start: m.index, end: m.index + m[0].length, name: m[2].toLowerCase(), kind });
  }
  return out;
}

/**
 * Removes paired reasoning blocks (nested same-name blocks count depth),
 * self-closing reasoning tags, and an unclosed trailing block to the end
 * of the text. A close tag with no open tag is left as it is: SPEC §1 only
 * names paired and unclosed-trailing blocks.
 */
export function stripReasoning(text: string): string {
  const toks = tokens(text);
  if (toks.length === 0) return text;
  let out = "";
  let cursor = 0;
  let i = 0;
  while (i < toks.length) {
    const t = toks[i];
    if (t.kind === "close") {
      i++;
      continue;
    }
    out += text.slice(cursor, t.start);
    if (t.kind === "self") {
      cursor = t.end;
      i++;
      continue;
    }
    // Inside a block only tokens of the same name change the depth.
    let depth = 1;
    let j = i + 1;
    for (; j < toks.length && depth > 0; j++) {
      if (toks[j].name !== t.name) continue;
      if (toks[j].kind === "open") depth++;
      else if (toks[j].kind === "close") depth--;
    }
    if (depth > 0) return out; // SPEC §1: unclosed trailing block dropped to end of text
    cursor = toks[j - 1].end;
    i = j;
  }
  return out + text.slice(cursor);
}
