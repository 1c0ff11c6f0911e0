/**
 * The OpenAPI document is generator-ready: `openapi-typescript` (the devDependency, run with its defaults, as a
 * consumer would) turns openapi.yaml into types under which `{query, limit}` is a `/recall` body and a body without
 * `query` is not, and every JSON request body requires exactly the fields its schema lists in `required` — a field
 * with a default never becomes required in the generated type — and has no catch-all index signature.
 */
import { spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { tempDir } from "../_helpers/memory.ts";
import { rows, typecheck } from "../_helpers/tsc.ts";

const root = resolve(new URL("../..", import.meta.url).pathname);

function run(cmd: string, args: string[], cwd: string): Promise<{ status: number | null; out: string }> {
  return new Promise((done, fail) => {
    const child = spawn(cmd, args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    child.stderr.on("data", (b: Buffer) => (out += b.toString()));
    child.on("error", fail);
    child.on("close", (status) => done({ status, out }));
  });
}

type Schema = { $ref?: string; required?: string[]; properties?: Record<string, unknown>; oneOf?: unknown[]; anyOf?: unknown[] };
const doc = parse(readFileSync(join(root, "openapi.yaml"), "utf8")) as {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema: Schema }> } }>>;
  components: { schemas: Record<string, Schema> };
};
const deref = (s: Schema): Schema => (s.$ref ? doc.components.schemas[s.$ref.split("/").pop()!]! : s);

/** Every JSON request body that is one object schema (a oneOf body is a union; its members are checked where named). */
function objectBodies(): { path: string; method: string; required: string[] }[] {
  const out: { path: string; method: string; required: string[] }[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const s = op?.requestBody?.content?.["application/json"]?.schema;
      if (!s) continue;
      const o = deref(s);
      if (o.oneOf || o.anyOf || !o.properties) continue;
      out.push({ path, method, required: o.required ?? [] });
    }
  }
  return out;
}

describe("openapi-typescript on openapi.yaml", () => {
  it("accepts {query, limit} as a /recall body, refuses one without query, and requires exactly each body's required fields", { timeout: 300_000 }, async () => {
    const dir = tempDir("cairn-ots-");
    const gen = await run(process.execPath, [join(root, "node_modules/openapi-typescript/bin/cli.js"), join(root, "openapi.yaml"), "-o", join(dir, "api.d.ts")], root);
    expect(gen.status, gen.out).toBe(0);

    const bodies = objectBodies();
    expect(bodies.length).toBeGreaterThan(25);
    const checks = bodies.map((b, i) => {
      const want = b.required.length ? b.required.map((k) => JSON.stringify(k)).join(" | ") : "never";
      return `type B${i} = Body<paths[${JSON.stringify(b.path)}][${JSON.stringify(b.method)}]>;\n` +
        `export const r${i}: Same<RequiredKeys<B${i}>, ${want}> = ${JSON.stringify(`${b.method.toUpperCase()} ${b.path}`)};\n` +
        `export const n${i}: NoIndex<B${i}> = ${JSON.stringify(`${b.method.toUpperCase()} ${b.path}`)};`;
    });
    writeFileSync(join(dir, "check.ts"), `import type { paths } from "./api.js";
type Body<Op> = Op extends { requestBody?: infer R } ? NonNullable<R> extends { content: { "application/json": infer J } } ? J : never : never;
type RequiredKeys<T> = { [K in keyof T]-?: {} extends Pick<T, K> ? never : K }[keyof T];
// Resolves to the operation's name when the two key sets are equal; to never otherwise (the assignment then fails).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? string : never) : never;
// A catch-all index signature would let any misspelt field through (and hide required ones from RequiredKeys).
type NoIndex<T> = string extends keyof T ? never : string;

type RecallBody = Body<paths["/recall"]["post"]>;
export const ok: RecallBody = { query: "deploy windows", limit: 3 };
// @ts-expect-error a /recall body needs query
export const missing: RecallBody = { limit: 3 };

${checks.join("\n")}
`);
    const diags = await typecheck({ files: [join(dir, "check.ts")], options: { strict: true, target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", skipLibCheck: false, types: [] } });
    expect(rows(diags, dir)).toEqual([]);
  });
});
