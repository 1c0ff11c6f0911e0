/**
 * SPEC §1 retrieval pipeline step 5: the cross-encoder rerank tier fails open. A missing or broken
 * `CAIRN_RERANK_MODEL_DIR` boots with a warning (stderr and `/health/db`) and recall reranks with the built-in
 * reranker, answering exactly as a server without the variable.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { bootServer, type BootedServer } from "../../src/server.ts";
import { tempDir } from "../_helpers/memory.ts";

const booted: BootedServer[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  while (booted.length) await booted.pop()!.close();
});

async function boot(env: Record<string, string>): Promise<{ base: string; warnings: string[] }> {
  const warnings: string[] = [];
  const spy = vi.spyOn(console, "warn").mockImplementation((...a: unknown[]) => { warnings.push(a.map(String).join(" ")); });
  try {
    const b = await bootServer({ CAIRN_EMBED_KIND: "none", ...env }, 0);
    booted.push(b);
    return { base: `http://127.0.0.1:${b.server.port}`, warnings };
  } finally {
    spy.mockRestore();
  }
}

async function post(base: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const r = await fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(r.status).toBe(200);
  return await r.json() as Record<string, unknown>;
}

const DOCS = [
  { title: "Deploy windows", content: "Deploys happen on Tuesday mornings, never on Fridays." },
  { title: "Rollback", content: "A rollback needs the on-call engineer's approval." },
  { title: "Staging", content: "Staging is rebuilt every Sunday night from the main branch." },
];

describe("the rerank tier fails open at boot", () => {
  for (const [label, make] of [
    ["a missing model directory", (d: string) => join(d, "no-such-model")],
    ["a broken model file", (d: string) => {
      const m = join(d, "broken");
      mkdirSync(join(m, "onnx"), { recursive: true });
      writeFileSync(join(m, "onnx", "model.onnx"), new Uint8Array([8, 1, 9, 9, 9]));
      writeFileSync(join(m, "tokenizer.json"), "{}");
      return m;
    }],
  ] as const) {
    it(`boots with ${label}, warns on stderr and in /health/db, and recalls as without the variable`, async () => {
      const dir = tempDir();
      const broken = await boot({ CAIRN_DB_PATH: join(dir, "a.db"), CAIRN_RERANK_MODEL_DIR: make(dir) });
      const plain = await boot({ CAIRN_DB_PATH: join(dir, "b.db") });
      expect(broken.warnings.join("\n")).toMatch(/CAIRN_RERANK_MODEL_DIR/);
      expect(plain.warnings.join("\n")).not.toMatch(/CAIRN_RERANK_MODEL_DIR/);

      const health = await (await fetch(`${broken.base}/health/db`)).json() as Record<string, unknown>;
      expect(health.rerank_tier).toBe("builtin");
      expect(health.rerank_model).toBe("failed");
      expect(JSON.stringify(health.warnings)).toMatch(/rerank_model_unavailable/);
      const plainHealth = await (await fetch(`${plain.base}/health/db`)).json() as Record<string, unknown>;
      expect(plainHealth.rerank_tier).toBe("builtin");
      expect(plainHealth.warnings).toBeUndefined();

      for (const d of DOCS) {
        await post(broken.base, "/ingest", d);
        await post(plain.base, "/ingest", d);
      }
      for (const query of ["when do deploys happen", "who approves a rollback", "staging rebuild"]) {
        const a = await post(broken.base, "/recall", { query, limit: 3, provenance: true });
        const b = await post(plain.base, "/recall", { query, limit: 3, provenance: true });
        const view = (r: Record<string, unknown>) => (r.hits as Array<Record<string, unknown>>).map((h) => [h.id, h.score, h.title]);
        expect((a.hits as unknown[]).length).toBeGreaterThan(0);
        expect(view(a)).toEqual(view(b));
      }
    });
  }
});
