/** Architecture rules (STYLE rules 1, 5, 6, 12): dependency maps agree, bindings never reach the store, no cycles. */
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const root = resolve(new URL("../..", import.meta.url).pathname);

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir)) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...walk(p));
    else if (p.endsWith(".ts") || p.endsWith(".tsx")) out.push(p);
  }
  return out;
}

const srcFiles = walk(join(root, "src"));
const importRe = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\s+from\s+)?["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function imports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(importRe)) out.push(m[1] ?? m[2]);
  return out;
}

const rel = (f: string) => relative(root, f).replaceAll("\\", "/");

describe("architecture", () => {
  it("deno.json maps every runtime dependency exactly as package.json pins it", () => {
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    const deno = JSON.parse(readFileSync(join(root, "deno.json"), "utf8"));
    // Optional peers (the ONNX and transformers lanes, issue 21) are loaded by dynamic import and pinned like dependencies.
    const deps: Record<string, string> = { ...pkg.dependencies, ...pkg.peerDependencies };
    const mismatches: string[] = [];
    for (const [spec, target] of Object.entries(deno.imports as Record<string, string>)) {
      const m = /^npm:\/?(@?[^@]+)@([^/]+)\/?$/.exec(target);
      if (!m) { mismatches.push(`${spec} -> ${target} is not an npm: specifier`); continue; }
      const [, name, version] = m;
      if (spec.replace(/\/$/, "") !== name) mismatches.push(`${spec} maps to another package ${name}`);
      if (deps[name] !== version) mismatches.push(`${name}: deno.json ${version} vs package.json ${deps[name] ?? "(absent)"}`);
    }
    // every bare specifier used in src/ must be mapped in both
    const bare = new Set<string>();
    for (const f of srcFiles) for (const s of imports(f)) {
      if (s.startsWith(".") || s.startsWith("node:")) continue;
      bare.add(s.startsWith("@") ? s.split("/").slice(0, 2).join("/") : s.split("/")[0]);
    }
    for (const b of bare) {
      if (!(b in deps)) mismatches.push(`${b} used in src/ but not a package.json dependency`);
      if (!(b in deno.imports) && !(`${b}/` in deno.imports)) mismatches.push(`${b} used in src/ but not mapped in deno.json`);
    }
    expect(mismatches).toEqual([]);
  });

  it("relative imports carry .ts", () => {
    const bad: string[] = [];
    for (const f of [...srcFiles, join(root, "cli.ts"), join(root, "mod.ts")]) {
      for (const s of imports(f)) if (s.startsWith(".") && !s.endsWith(".ts") && !s.endsWith(".tsx") && !s.endsWith(".json")) bad.push(`${rel(f)} -> ${s}`);
    }
    expect(bad).toEqual([]);
  });

  it("src/http and src/web never import src/store directly (bindings go through the composition root)", () => {
    const bad: string[] = [];
    for (const f of srcFiles.filter((f) => rel(f).startsWith("src/http/") || rel(f).startsWith("src/web/"))) {
      for (const s of imports(f)) {
        if (!s.startsWith(".")) continue;
        if (rel(resolve(dirname(f), s)).startsWith("src/store/")) bad.push(`${rel(f)} -> ${s}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("SQL appears only in src/store", () => {
    const sql = /\b(SELECT\s+[\w*(]|INSERT\s+INTO|DELETE\s+FROM|UPDATE\s+\w+\s+SET|CREATE\s+TABLE)\b/;
    const bad = srcFiles.filter((f) => !rel(f).startsWith("src/store/") && sql.test(readFileSync(f, "utf8"))).map(rel);
    expect(bad).toEqual([]);
  });

  it("node:*, process and Deno appear only in src/runtime (and opt-in loader files)", () => {
    const allowed = (r: string) => r.startsWith("src/runtime/") || /src\/(embed|rerank)\/onnx/.test(r);
    const bad: string[] = [];
    for (const f of srcFiles) {
      const r = rel(f);
      if (allowed(r)) continue;
      const text = readFileSync(f, "utf8").replace(/\/\/.*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, "");
      if (/from\s+["']node:|import\(\s*["']node:/.test(text) || /\bprocess\.(env|argv|exit|memoryUsage)/.test(text) || /\bDeno\./.test(text)) bad.push(r);
    }
    expect(bad).toEqual([]);
  });

  it("domain folders never import a binding, and src/ has no import cycle", () => {
    // src/client/ is the HTTP binding seen from the caller (issue 21): it may import the route types.
    const bindings = ["src/http/", "src/mcp/", "src/cli/", "src/client/", "src/web/", "src/server.ts"];
    const graph = new Map<string, string[]>();
    const bad: string[] = [];
    for (const f of srcFiles) {
      const r = rel(f);
      const deps = imports(f).filter((s) => s.startsWith(".")).map((s) => rel(resolve(dirname(f), s)));
      graph.set(r, deps);
      const isBinding = bindings.some((b) => r.startsWith(b)) || r === "src/memory.ts";
      if (!isBinding) for (const d of deps) if (bindings.some((b) => d.startsWith(b))) bad.push(`${r} -> ${d}`);
    }
    expect(bad).toEqual([]);
    const state = new Map<string, number>();
    const cycles: string[] = [];
    const visit = (n: string, stack: string[]) => {
      state.set(n, 1);
      for (const d of graph.get(n) ?? []) {
        if (state.get(d) === 1) cycles.push([...stack, n, d].slice(stack.indexOf(d) >= 0 ? stack.indexOf(d) : 0).join(" -> "));
        else if (!state.has(d)) visit(d, [...stack, n]);
      }
      state.set(n, 2);
    };
    for (const n of graph.keys()) if (!state.has(n)) visit(n, []);
    expect(cycles).toEqual([]);
  });

  it("VERSION equals the package.json version", async () => {
    const { VERSION } = await import("../../src/core/version.ts");
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    expect(VERSION).toBe(pkg.version);
  });
});
