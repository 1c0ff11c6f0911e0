/**
 * JSON Canonicalization Scheme, RFC 8785 (JCS): the byte form UMP hashes and
 * signs (SPEC §2.8; UMP notes "Canonical form"). Object members are sorted by
 * their UTF-16 code units, numbers use the ECMAScript Number-to-String
 * algorithm (RFC 8785 §3.2.2.3), strings use the minimal JSON escaping of
 * RFC 8785 §3.2.2.2, and there is no whitespace.
 *
 * Inputs follow `JSON.stringify` conventions so that
 * `canonicalize(x) === canonicalize(JSON.parse(JSON.stringify(x)))`:
 * `toJSON` is honoured (Dates become ISO strings), `undefined` members are
 * dropped and `undefined` array slots become `null`. Values JCS cannot
 * represent (NaN, ±Infinity, BigInt, functions, symbols, lone surrogates,
 * cycles, class instances without `toJSON`) throw `MemoryError("invalid_record")`.
 */

import { MemoryError } from "../core/errors.ts";

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Returns the RFC 8785 canonical JSON text of `value`. */
export function canonicalize(value: unknown): string {
  if (value === undefined) throw fail("undefined has no JSON form");
  return serialize(value, new Set());
}

/** Returns the UTF-8 bytes of the RFC 8785 canonical form (what gets hashed). */
export function canonicalBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(canonicalize(value));
}

function fail(message: string): MemoryError {
  return new MemoryError("invalid_record", `Value cannot be canonicalised: ${message}`);
}

function serialize(value: unknown, seen: Set<object>): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "number":
      // RFC 8785 §3.2.2.3: ECMAScript Number.prototype.toString; -0 prints "0".
      if (!Number.isFinite(value)) throw fail(`non-finite number ${String(value)}`);
      return String(value);
    case "string":
      return serializeString(value);
    case "object":
      return serializeObject(value as object, seen);
    default:
      throw fail(`unsupported type ${typeof value}`);
  }
}

function serializeString(text: string): string {
  // RFC 8785 §3.2.2.2 requires valid Unicode; JSON.stringify would emit \udXXX escapes.
  if (LONE_SURROGATE.test(text)) throw fail("string contains a lone surrogate");
  // For well-formed strings JSON.stringify is exactly the JCS escaping:
  // \" \\ \b \f \n \r \t, other C0 controls as lowercase \u00xx, everything else literal.
  return JSON.stringify(text);
}

function serializeObject(value: object, seen: Set<object>): string {
  const withJson = value as { toJSON?: unknown };
  if (typeof withJson.toJSON === "function") {
    const replaced = (withJson.toJSON as () => unknown)();
    if (replaced === undefined) throw fail("toJSON returned undefined");
    return serialize(replaced, seen);
  }
  if (seen.has(value)) throw fail("cyclic structure");
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      return "[" + value.map((item) => (item === undefined ? "null" : serialize(item, seen))).join(",") + "]";
    }
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) throw fail("not a plain object");
    const record = value as Record<string, unknown>;
    // Default sort compares UTF-16 code units, which is the JCS ordering (RFC 8785 §3.2.3).
    const keys = Object.keys(record).filter((k) => record[k] !== undefined).sort();
    const members = keys.map((k) => serializeString(k) + ":" + serialize(record[k], seen));
    return "{" + members.join(",") + "}";
  } finally {
    seen.delete(value);
  }
}
