/**
 * Request generators for the route fuzz suite (issue 23 §6). Routes come from
 * the app itself (every registered endpoint); a route's body, query and path
 * parameters come from its operation in the served OpenAPI document when it
 * has one (schemas as code, issue 21), and from a generic JSON generator
 * otherwise, so a new route is fuzzed without an edit here.
 */
import fc from "fast-check";
import { parse as parseYaml } from "yaml";
import { aliasBomb, noteWith } from "../hardening/corpus/alias-bombs.ts";
import { CONSTRUCTS } from "../hardening/corpus/markdown.ts";
import { cases as nestingCases } from "../hardening/corpus/nesting.ts";
import { cases as textFieldCases } from "../hardening/corpus/text-fields.ts";

/** One route to fuzz. */
export interface FuzzRoute {
  method: string;
  /** Hono pattern (`/domains/:name`). */
  pattern: string;
  /** The JSON schema of its body, when declared. */
  body?: JsonSchema;
  /** Declared query parameter names and schemas. */
  query: { name: string; schema?: JsonSchema }[];
}

/** A JSON schema fragment (the subset OpenAPI 3.1 documents use here). */
export type JsonSchema = Record<string, unknown>;

/** A generated request. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** Strings that broke parsers before: escapes, surrogates, control characters, numbers in disguise, huge text. */
const NAUGHTY = [
  "", " ", "null", "undefined", "0", "-1", "1.5", "1e400", "NaN", "true", "[]", "{}", "\u0000", "\ud800", "\udfff", "\ufeff",
  "\u202e", "../../etc/passwd", "%00", "%2f", "<script>alert(1)</script>", "' OR 1=1 --", "root", "general", "a".repeat(300),
  "🪨", "Ω≈ç√", "\r\n", "${x}", "__proto__", "constructor", "x".repeat(70_000),
];

/**
 * Strings from the hostile-input corpus (test/hardening/corpus): pathological markdown of each construct (8 K
 * characters), front matter alias bombs, and the strings that break the text-field rule.
 */
const CORPUS_STRINGS = [
  ...Object.values(CONSTRUCTS).map((make) => make(8_000)),
  noteWith(aliasBomb(7)), noteWith(aliasBomb(8)), "left\u0000right", "x\ud800y", "\udc00", "[x]: ".repeat(1000), "- [x] ".repeat(1000),
  ">".repeat(5000), "1. ".repeat(2000), "^(a|a)+$", "(a+)+b", "a".repeat(40) + "!",
];
/** Whole bodies from the corpus (not heavy, at most 1 MiB): nesting and text-field cases. */
const CORPUS_BODIES = [...nestingCases, ...textFieldCases]
  .filter((c) => !c.heavy && c.body !== undefined).map((c) => c.body!()).filter((b): b is string => typeof b === "string" && b.length < 1_000_000);

const naughty = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...NAUGHTY) }, { weight: 1, arbitrary: fc.constantFrom(...CORPUS_STRINGS) });
const anyString = fc.oneof(naughty, fc.string({ maxLength: 40 }), fc.string({ unit: "binary", maxLength: 20 }));
const anyScalar: fc.Arbitrary<unknown> = fc.oneof(anyString, fc.integer(), fc.double(), fc.boolean(), fc.constant(null),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -0, 1e300));
/** Any JSON value, shallow. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: "small", withCrossShrink: true }, anyScalar, fc.array(tie("v"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(naughty, fc.string({ maxLength: 10 })), tie("v"), { maxKeys: 5 })),
})).v;

/** An arbitrary for a JSON schema, resolving `#/components/schemas/...` refs; half the time off-schema. */
export function fromSchema(s: JsonSchema | undefined, doc: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  if (!s || depth > 4) return anyJson;
  const ref = s.$ref as string | undefined;
  if (ref) {
    const name = ref.split("/").pop()!;
    const target = ((doc.components as JsonSchema | undefined)?.schemas as Record<string, JsonSchema> | undefined)?.[name];
    return fromSchema(target, doc, depth + 1);
  }
  const alts = (s.oneOf ?? s.anyOf) as JsonSchema[] | undefined;
  const shaped = (() => {
    if (alts?.length) return fc.oneof(...alts.map((a) => fromSchema(a, doc, depth + 1)));
    if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    switch (type) {
      case "object": {
        const props = (s.properties ?? {}) as Record<string, JsonSchema>;
        const required = new Set((s.required as string[] | undefined) ?? []);
        const rec: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [k, p] of Object.entries(props)) rec[k] = fromSchema(p, doc, depth + 1);
        return fc.record(rec, { requiredKeys: Object.keys(rec).filter((k) => required.has(k) || Math.random() < 0.5) });
      }
      case "array": return fc.array(fromSchema(s.items as JsonSchema | undefined, doc, depth + 1), { maxLength: 5 });
      case "string": return fc.oneof(fc.string({ maxLength: Number(s.maxLength ?? 60) }), naughty, fc.constantFrom("2030-01-01T00:00:00Z", "general", "fact"));
      case "integer": return fc.oneof(fc.integer({ min: -5, max: 200 }), fc.constantFrom(0, 1, 2, 3, 1e21));
      case "number": return fc.oneof(fc.double({ min: -2, max: 2 }), fc.constantFrom(0, 0.5, 1));
      case "boolean": return fc.boolean();
      default: return anyJson;
    }
  })();
  return fc.oneof({ weight: 3, arbitrary: shaped }, { weight: 1, arbitrary: anyJson });
}

/** Joins the app's endpoints with the served OpenAPI document's operations. */
export function fuzzRoutes(endpoints: { method: string; path: string }[], openapiYaml: string): { routes: FuzzRoute[]; doc: JsonSchema } {
  const doc = parseYaml(openapiYaml) as JsonSchema;
  const paths = (doc.paths ?? {}) as Record<string, Record<string, JsonSchema>>;
  const seen = new Set<string>();
  const routes: FuzzRoute[] = [];
  for (const e of endpoints) {
    const key = `${e.method} ${e.path}`;
    if (seen.has(key) || e.method === "ALL") continue;
    seen.add(key);
    const op = paths[e.path.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, "{$1}")]?.[e.method.toLowerCase()];
    const content = ((op?.requestBody as JsonSchema | undefined)?.content ?? {}) as Record<string, JsonSchema>;
    const params = ((op?.parameters ?? []) as JsonSchema[]).filter((p) => p.in === "query");
    routes.push({
      method: e.method, pattern: e.path, body: content["application/json"]?.schema as JsonSchema | undefined,
      query: params.map((p) => ({ name: String(p.name), schema: p.schema as JsonSchema | undefined })),
    });
  }
  return { routes, doc };
}

const CONTENT_TYPES = ["application/json", "application/json", "application/json", "application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", "application/octet-stream", undefined];
const PATH_VALUES = ["1", "2", "0", "-1", "999999999999", "abc", "general", "%2e%2e", "%00", "a".repeat(200), "1.5", "urn:ump:x", "%F0%9F%AA%A8", "%ZZ"];

/** A request generator for one route. */
export function requestFor(route: FuzzRoute, doc: JsonSchema): fc.Arbitrary<FuzzRequest> {
  const segs = route.pattern.split("/");
  const params = segs.map((s) => (s.startsWith(":") ? fc.constantFrom(...PATH_VALUES) : fc.constant(s)));
  const declared = route.query.map((q) => fc.tuple(fc.constant(q.name), fc.oneof(fromSchema(q.schema, doc).map((v) => (typeof v === "string" ? v : JSON.stringify(v) ?? "")), naughty)));
  const query = fc.array(fc.oneof(...(declared.length ? declared : [fc.tuple(fc.constantFrom("limit", "after", "format", "q"), naughty)]),
    fc.tuple(fc.constantFrom("limit", "format", "at", "domain", "confirm", "digest"), naughty)), { maxLength: 3 });
  const hasBody = route.method !== "GET" && route.method !== "HEAD";
  const body = hasBody
    ? fc.oneof({ weight: 4, arbitrary: fromSchema(route.body, doc).map((v) => JSON.stringify(v) ?? "null") },
      { weight: 1, arbitrary: fc.constantFrom("", "{", "[1,", "\u0000", '{"a":1e400}', '{"__proto__":{"x":1}}', "null", '"\\ud800"') },
      { weight: 1, arbitrary: fc.constantFrom(...CORPUS_BODIES) },
      { weight: 1, arbitrary: fc.constant(undefined) })
    : fc.constant(undefined);
  return fc.record({ params: fc.tuple(...params), query, body, ct: fc.constantFrom(...CONTENT_TYPES) }).map(({ params, query, body, ct }) => {
    const qs = query.map(([k, v]) => `${enc(k)}=${enc(v)}`).join("&");
    const headers: Record<string, string> = {};
    if (body !== undefined && ct !== undefined) headers["content-type"] = ct;
    return { method: route.method, path: `${params.join("/")}${qs ? `?${qs}` : ""}`, headers, body };
  });
}

// A lone surrogate cannot be percent-encoded as UTF-8: send the bytes of an encoded surrogate instead (invalid UTF-8).
function enc(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return "%ED%A0%80";
  }
}
