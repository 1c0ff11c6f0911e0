/** The JSON Schema subset of claim schemas (src/claims/json-schema-subset.ts): what validates and what is refused. */
import { describe, expect, it } from "vitest";
import { checkSchema, validate, type Schema } from "../../src/claims/json-schema-subset.ts";

const checked = (s: unknown): Schema => {
  checkSchema(s);
  return s as Schema;
};
const keywords = (s: Schema, v: unknown) => validate(s, v).map((e) => `${e.path} ${e.keyword}`);

describe("claim schema subset", () => {
  it("treats an integer as a number but not a number as an integer, and accepts type lists", () => {
    expect(keywords(checked({ type: "number" }), 3)).toEqual([]);
    expect(keywords(checked({ type: "integer" }), 3.5)).toEqual(["/ type"]);
    expect(keywords(checked({ type: ["string", "null"] }), null)).toEqual([]);
    expect(keywords(checked({ type: ["string", "null"] }), 1)).toEqual(["/ type"]);
    expect(keywords(checked({ type: "array" }), {})).toEqual(["/ type"]);
    expect(keywords(checked({ type: "object" }), [])).toEqual(["/ type"]);
  });

  it("compares enum and const by JSON value, whatever the member order", () => {
    const s = checked({ const: { a: 1, b: [1, 2] } });
    expect(keywords(s, { b: [1, 2], a: 1 })).toEqual([]);
    expect(keywords(s, { a: 1, b: [2, 1] })).toEqual(["/ const"]);
    expect(keywords(checked({ enum: [1, "1", null] }), "1")).toEqual([]);
    expect(keywords(checked({ enum: [1, "1", null] }), true)).toEqual(["/ enum"]);
  });

  it("counts string length in code points and applies items, item counts and schema-valued additionalProperties", () => {
    expect(keywords(checked({ type: "string", maxLength: 2 }), "😀😀")).toEqual([]);
    expect(keywords(checked({ type: "string", minLength: 3 }), "😀😀")).toEqual(["/ minLength"]);
    const list = checked({ type: "array", minItems: 1, maxItems: 2, items: { type: "integer", minimum: 0 } });
    expect(keywords(list, [])).toEqual(["/ minItems"]);
    expect(keywords(list, [1, -1, 2])).toEqual(["/ maxItems", "/1 minimum"]);
    const map = checked({ type: "object", properties: { id: { type: "string" } }, additionalProperties: { type: "number" } });
    expect(keywords(map, { id: "x", "a/b": 1, "c~d": "no" })).toEqual(["/c~0d type"]);
  });

  it("refuses unknown keywords anywhere in the tree, but accepts annotations", () => {
    expect(() => checkSchema({ title: "t", description: "d", $comment: "c", examples: [1], default: 1, type: "integer" })).not.toThrow();
    expect(() => checkSchema({ type: "array", items: { type: "object", properties: { a: { anyOf: [] } } } })).toThrow(
      expect.objectContaining({ code: "claim_schema_invalid", details: { schema_path: "/items/properties/a", keyword: "anyOf" } }),
    );
    expect(() => checkSchema({ type: "string", pattern: "x".repeat(300) })).toThrow(expect.objectContaining({ details: { schema_path: "/", keyword: "pattern" } }));
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 40; i++) deep = { type: "array", items: deep };
    expect(() => checkSchema(deep)).toThrow(expect.objectContaining({ details: expect.objectContaining({ keyword: "depth" }) }));
  });
});
