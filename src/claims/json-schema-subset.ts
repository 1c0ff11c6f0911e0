/**
 * A documented subset of JSON Schema (draft 2020-12 semantics) for claim
 * schemas (SPEC §2.12: "a claim schema is a JSON Schema"). No validator
 * package is a dependency of this project, so the subset is written here
 * and a schema using any other keyword is refused (400
 * `claim_schema_invalid`) rather than half-honoured.
 *
 * Validation keywords: type, properties, required, additionalProperties,
 * items, minItems, maxItems, enum, const, minLength, maxLength, pattern,
 * minimum, maximum. Annotations (ignored): $schema, $id, $comment, title,
 * description, examples, default. `pattern` runs on a linear-time engine with
 * RE2 semantics (`_pattern.ts`); lookaround and backreferences are refused.
 */
import { MemoryError } from "../core/errors.ts";
import { compilePattern, PATTERN_LIMITS, PatternChecks } from "./_pattern.ts";

const TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"] as const;
const ANNOTATIONS = new Set(["$schema", "$id", "$comment", "title", "description", "examples", "default"]);
const KEYWORDS = new Set([
  "type", "properties", "required", "additionalProperties", "items", "minItems", "maxItems",
  "enum", "const", "minLength", "maxLength", "pattern", "minimum", "maximum",
]);
/** Nesting depth a schema may reach. */
export const MAX_SCHEMA_DEPTH = 32;
/** A `pattern` longer than this is refused (docs/limits.md "Patterns"). */
export const MAX_PATTERN_LENGTH = PATTERN_LIMITS.sourceChars;
const MAX_ERRORS = 50;

/** A JSON Schema in the supported subset (checked by `checkSchema`). */
export type Schema = Record<string, unknown>;

/** One validation failure: the JSON Pointer of the value, the keyword that failed and a message. */
export interface SchemaError {
  path: string;
  keyword: string;
  message: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isCount = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= 0;
const pointer = (base: string, key: string | number) => `${base}/${String(key).replaceAll("~", "~0").replaceAll("/", "~1")}`;

/** Refuses a schema outside the subset with 400 `claim_schema_invalid` naming the schema path and keyword. */
export function checkSchema(schema: unknown, path = "", depth = 0): asserts schema is Schema {
  const bad = (keyword: string, message: string): never => {
    throw new MemoryError("claim_schema_invalid", message, { schema_path: path || "/", keyword });
  };
  if (depth > MAX_SCHEMA_DEPTH) bad("depth", `Schema nests deeper than ${MAX_SCHEMA_DEPTH} levels`);
  if (!isObject(schema)) return bad("schema", "A schema must be a JSON object");
  for (const [k, v] of Object.entries(schema)) {
    if (ANNOTATIONS.has(k)) continue;
    if (!KEYWORDS.has(k)) bad(k, `Unsupported JSON Schema keyword "${k}"`);
    const at = pointer(path, k);
    switch (k) {
      case "type": {
        const list = Array.isArray(v) ? v : [v];
        if (list.length === 0 || !list.every((t) => (TYPES as readonly unknown[]).includes(t))) bad(k, `"type" must be one of ${TYPES.join(", ")} or a list of them`);
        break;
      }
      case "properties":
        if (!isObject(v)) bad(k, `"properties" must be an object of schemas`);
        for (const [name, sub] of Object.entries(v as object)) checkSchema(sub, pointer(at, name), depth + 1);
        break;
      case "required":
        if (!Array.isArray(v) || !v.every((x) => typeof x === "string") || new Set(v).size !== v.length) bad(k, `"required" must be a list of distinct strings`);
        break;
      case "additionalProperties":
        if (typeof v !== "boolean") checkSchema(v, at, depth + 1);
        break;
      case "items":
        checkSchema(v, at, depth + 1);
        break;
      case "enum":
        if (!Array.isArray(v) || v.length === 0) bad(k, `"enum" must be a non-empty list`);
        break;
      case "const":
        break;
      case "minLength": case "maxLength": case "minItems": case "maxItems":
        if (!isCount(v)) bad(k, `"${k}" must be a non-negative integer`);
        break;
      case "minimum": case "maximum":
        if (typeof v !== "number" || !Number.isFinite(v)) bad(k, `"${k}" must be a number`);
        break;
      case "pattern": {
        if (typeof v !== "string" || v.length > MAX_PATTERN_LENGTH) bad(k, `"pattern" must be a string of at most ${MAX_PATTERN_LENGTH} characters`);
        const c = compilePattern(v as string);
        if ("error" in c) bad(k, c.error);
        break;
      }
    }
  }
}

/** Validates a value against a checked schema; returns every failure (at most 50), empty when valid. */
export function validate(schema: Schema, value: unknown): SchemaError[] {
  const errors: SchemaError[] = [];
  walk(schema, value, "", errors, new PatternChecks());
  return errors;
}

function typeOf(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function walk(s: Schema, v: unknown, path: string, errors: SchemaError[], patterns: PatternChecks): void {
  const fail = (keyword: string, message: string) => {
    if (errors.length < MAX_ERRORS) errors.push({ path: path || "/", keyword, message });
  };
  if (s.type !== undefined) {
    const allowed = (Array.isArray(s.type) ? s.type : [s.type]) as string[];
    const t = typeOf(v);
    // An integer is also a number (JSON Schema: 1.0 is an integer).
    if (!allowed.includes(t) && !(t === "integer" && allowed.includes("number"))) {
      fail("type", `Expected ${allowed.join(" or ")}, got ${t}`);
      return;
    }
  }
  if (s.enum !== undefined && !(s.enum as unknown[]).some((e) => same(e, v))) fail("enum", "Value is not one of the allowed values");
  if ("const" in s && !same(s.const, v)) fail("const", "Value is not the required constant");
  if (typeof v === "string") {
    const len = [...v].length; // JSON Schema counts code points
    if (typeof s.minLength === "number" && len < s.minLength) fail("minLength", `Shorter than ${s.minLength} characters`);
    if (typeof s.maxLength === "number" && len > s.maxLength) fail("maxLength", `Longer than ${s.maxLength} characters`);
    if (typeof s.pattern === "string") {
      const ok = patterns.test(s.pattern, v);
      if (ok !== true) fail("pattern", ok === false ? "Does not match the pattern" : ok);
    }
  }
  if (typeof v === "number") {
    if (typeof s.minimum === "number" && v < s.minimum) fail("minimum", `Less than ${s.minimum}`);
    if (typeof s.maximum === "number" && v > s.maximum) fail("maximum", `Greater than ${s.maximum}`);
  }
  if (Array.isArray(v)) {
    if (typeof s.minItems === "number" && v.length < s.minItems) fail("minItems", `Fewer than ${s.minItems} items`);
    if (typeof s.maxItems === "number" && v.length > s.maxItems) fail("maxItems", `More than ${s.maxItems} items`);
    if (isObject(s.items)) v.forEach((item, i) => walk(s.items as Schema, item, pointer(path, i), errors, patterns));
  }
  if (isObject(v)) {
    const props = (isObject(s.properties) ? s.properties : {}) as Record<string, Schema>;
    for (const name of (s.required as string[] | undefined) ?? []) {
      if (!Object.hasOwn(v, name)) fail("required", `Missing required property "${name}"`);
    }
    for (const [name, val] of Object.entries(v)) {
      if (Object.hasOwn(props, name)) walk(props[name]!, val, pointer(path, name), errors, patterns);
      else if (s.additionalProperties === false) fail("additionalProperties", `Property "${name}" is not allowed`);
      else if (isObject(s.additionalProperties)) walk(s.additionalProperties, val, pointer(path, name), errors, patterns);
    }
  }
}

/** JSON equality (object member order does not matter). */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  return false;
}
