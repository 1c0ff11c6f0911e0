/**
 * NUL and lone surrogates in every text field (docs/limits.md "Text fields"):
 * for every route of the served OpenAPI document, a body (or query string)
 * carrying one is refused with 400 naming the field, before the route reads
 * it. Routes whose items answer one by one (`/ingest/memory`, the UMP batch)
 * reject the item instead; the signed channel routes answer 401 to an
 * unsigned body first; the snapshot import takes only binary bodies.
 */
import { readFileSync } from "node:fs";
import { parse } from "yaml";
import type { HostileCase } from "./types.ts";

const doc = parse(readFileSync(new URL("../../../openapi.yaml", import.meta.url), "utf8")) as { paths: Record<string, Record<string, unknown>> };
const SKIP = new Set(["POST /domains/{name}/import", "POST /webhooks/channel/{kind}", "POST /webhooks/channel/{kind}/drain", "GET /ump/subscribe"]);
const PER_ITEM = new Set(["POST /ingest/memory"]);
const fill = (path: string) => path.replace(/\{[^}]+\}/g, "1");

/** The strings that break the rule, as JSON text (escapes, so the body itself is valid UTF-8 JSON). */
export const BAD_TEXT: { name: string; json: string; code: string }[] = [
  { name: "a NUL", json: '"left\\u0000right"', code: "invalid_request" },
  { name: "a lone high surrogate", json: '"left\\ud800right"', code: "invalid_unicode" },
  { name: "a lone low surrogate", json: '"\\udc00"', code: "invalid_unicode" },
];

export const cases: HostileCase[] = [];
for (const [path, ops] of Object.entries(doc.paths)) {
  for (const method of Object.keys(ops)) {
    const key = `${method.toUpperCase()} ${path}`;
    if (SKIP.has(key) || !["get", "post", "put", "patch", "delete"].includes(method)) continue;
    if (method === "get" || method === "delete") {
      cases.push({ name: `${key}: a NUL in a query value`, method: method.toUpperCase(), path: `${fill(path)}?q=a%00b`, expect: { status: [400], code: "invalid_request" } });
      continue;
    }
    for (const bad of BAD_TEXT) {
      const body = PER_ITEM.has(key) ? `{"entries":["fine entry text",{"content":${bad.json}}]}` : `{"text":${bad.json},"title":"t","content":${bad.json}}`;
      cases.push({
        name: `${key}: ${bad.name} in the body`, method: "POST", path: fill(path), body: () => body,
        // A per-item door answers 200 with the item rejected.
        expect: PER_ITEM.has(key) ? { status: [200] } : { status: [400], code: bad.code },
      });
    }
    cases.push({
      name: `${key}: a NUL in a member name`, method: method.toUpperCase(), path: fill(path), body: () => '{"na\\u0000me":1}',
      expect: PER_ITEM.has(key) ? { status: [400] } : { status: [400], code: "invalid_request" },
    });
  }
}
cases.push(
  { name: "POST /ingest?format=ump-md: a NUL in a record title", method: "POST", path: "/ingest?format=ump-md", headers: { "content-type": "text/markdown" },
    body: () => '---\nkind: semantic\ntitle: "a\\0b"\n---\nbody\n', expect: { status: [400], code: "invalid_request" } },
  { name: "POST /ingest/markdown: a lone surrogate escaped in front matter", method: "POST", path: "/ingest/markdown",
    body: () => JSON.stringify({ title: "t", content: '---\ntitle: "a \\ud800 b"\n---\nbody\n' }), expect: { status: [400], code: "invalid_unicode" } },
);
