/**
 * Oversized nesting (docs/limits.md "Nesting"): JSON bodies nested past 128
 * levels are refused with 400 `json_too_deep` before any route walks them
 * (`JSON.stringify` overflows the stack a few thousand levels down). Claim
 * schemas past 32 levels and front matter past 64 have their own codes.
 */
import type { HostileCase } from "./types.ts";

const deepArray = (d: number) => "[".repeat(d) + "]".repeat(d);
const deepObject = (d: number) => '{"a":'.repeat(d) + "1" + "}".repeat(d);
const TOO_DEEP = { status: [400], code: "json_too_deep" };

export const cases: HostileCase[] = [
  ...["/ingest", "/ump/remember", "/recall", "/workflow/claims", "/workflow/cases", "/ingest/memory", "/kcs/translate"].flatMap((path): HostileCase[] => [
    { name: `${path}: an array nested 100,000 deep`, method: "POST", path, body: () => `{"x":${deepArray(100_000)}}`, expect: TOO_DEEP },
    { name: `${path}: an object nested 5,000 deep`, method: "POST", path, body: () => deepObject(5000), expect: TOO_DEEP },
  ]),
  { name: "/ump/remember: body.structured nested 129 deep", method: "POST", path: "/ump/remember", body: () => `{"kind":"semantic","body":{"text":"x","structured":${deepArray(127)}}}`, expect: TOO_DEEP },
  { name: "/ump/remember: body.structured nested 100 deep (allowed)", method: "POST", path: "/ump/remember", body: () => `{"kind":"semantic","body":{"text":"nested ok","structured":${deepArray(100)}}}`, expect: { status: [200, 400] } },
  { name: "/workflow/claim-schemas: a schema nested 40 deep", method: "POST", path: "/workflow/claim-schemas",
    body: () => JSON.stringify({ name: "deep-schema", schema: JSON.parse('{"items":'.repeat(40) + "{}" + "}".repeat(40)) }), expect: { status: [400], code: "claim_schema_invalid" } },
  { name: "/ingest/memory: 1,000 entries of nested arrays 100 deep", method: "POST", path: "/ingest/memory",
    body: () => `{"entries":[${Array(1000).fill(deepArray(100)).join(",")}]}`, expect: { status: [200, 400] } },
];
