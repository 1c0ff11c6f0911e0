/**
 * Catastrophic and out-of-subset regular expressions in claim schemas
 * (docs/limits.md "Patterns"). Each verify case creates its own schema and
 * claim in `setup`; the path is a getter naming the claim it made.
 */
import type { CaseRequester, HostileCase } from "./types.ts";

let n = 0;

/** A case that files a claim under a one-pattern schema and verifies it. */
function verifyCase(name: string, pattern: string, value: unknown, heavy = false): HostileCase {
  let claimId = 0;
  return {
    name, method: "POST", heavy,
    get path() { return `/workflow/claims/${claimId}/verify`; },
    setup: async (req: CaseRequester) => {
      const s = await req("POST", "/workflow/claim-schemas", { name: `hostile-${++n}-${Date.now()}`, schema: { type: "object", properties: { v: { type: "string", pattern } } } });
      const schemaId = (await s.json()).schema.id;
      const chunk = (await (await req("POST", "/ingest", { title: "evidence", content: `evidence for a hostile claim ${n} ${Date.now()}` })).json()).id;
      claimId = (await (await req("POST", "/workflow/claims", { schema_id: schemaId, claim: { v: value }, evidence: [chunk] })).json()).id;
    },
    expect: { status: [200] },
  };
}

const refused = (name: string, pattern: string): HostileCase => ({
  name: `claim schema with ${name}`, method: "POST", path: "/workflow/claim-schemas",
  body: () => JSON.stringify({ name: `refused-${name.replace(/[^a-z]/g, "")}`, schema: { type: "string", pattern } }),
  expect: { status: [400], code: "claim_schema_invalid" },
});

export const cases: HostileCase[] = [
  verifyCase("^(a|a)+$ against 40 a's and a !", "^(a|a)+$", "a".repeat(40) + "!"),
  verifyCase("(a+)+b against 5,000 a's", "(a+)+b", "a".repeat(5000)),
  verifyCase("(x+x+)+y against 20,000 x's", "(x+x+)+y", "x".repeat(20_000)),
  verifyCase("^(\\w+\\s?)*$ against a long sentence ending in !", "^(\\w+\\s?)*$", "word ".repeat(5000) + "!"),
  verifyCase("(a|b)*a(a|b){40}c (a DFA-state explosion) against 60,000 characters", "(a|b)*a(a|b){40}c", "ab".repeat(30_000) + "c", true),
  refused("a backreference", "^(a)\\1$"),
  refused("a lookahead", "^(?=a)a$"),
  refused("a lookbehind", "(?<!x)y"),
  refused("a pattern over 256 characters", "a".repeat(300)),
  refused("a repeat count over 1000", "a{5000}"),
  refused("nested counted repeats", "((a{100}){100}){100}"),
];
