/** Test harness: a fresh temp dir with a real libSQL file, the real composition root and the real Hono app. */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseConfig } from "../../src/config/parse-config.ts";
import { createApp } from "../../src/http/app.ts";
import type { Embedder } from "../../src/embed/embedder.ts";
import { openMemory, type Memory, type MemoryPorts } from "../../src/memory.ts";
import { loadEmbedder } from "../../src/runtime/model-loader.ts";
import { readSecretFile } from "../../src/runtime/platform.ts";
import { domainFilesBeside } from "../../src/runtime/domain-files.ts";
import { asyncWorkScope } from "../../src/runtime/work-scope.ts";

/** An opened test memory with its app. */
export interface TestMemory {
  dir: string;
  dbPath: string;
  memory: Memory;
  app: ReturnType<typeof createApp>;
  /** JSON request helper over app.request; the socket peer defaults to 127.0.0.1 (as the runtime adapter would pass it). */
  req(method: string, path: string, body?: unknown, headers?: Record<string, string>, peer?: string): Promise<Response>;
  close(): Promise<void>;
}

/** The repo's openapi.yaml text. */
export const openapiYaml = readFileSync(new URL("../../openapi.yaml", import.meta.url), "utf8");

/** Creates a fresh temp dir. */
export function tempDir(prefix = "cairn-test-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

// The static table is 15 MB and read-only once loaded: one load per test process, shared by every memory it opens.
let staticEmbedder: Promise<Embedder | undefined> | undefined;

/**
 * Opens a memory on a fresh libSQL file in the production profile (issue 27): the server's default static embedder and
 * the same config-derived recall parameters, unless the test passes its own `ports.embedder` or opts out with
 * `CAIRN_EMBED_KIND: "none"` (lexical-only; the caller says why).
 */
export async function openTestMemory(env: Record<string, string> = {}, ports: Partial<MemoryPorts> = {}, dir = tempDir()): Promise<TestMemory> {
  const dbPath = join(dir, "cairn.db");
  // `npm run test:multi-db` re-runs chosen behaviour suites with every domain in its own database (issue 20).
  const multi = process.env.CAIRN_TEST_MULTI_DB === "1" && env.CAIRN_DB_URL === undefined ? { CAIRN_MULTI_DB: "true" } : {};
  const config = parseConfig({ CAIRN_DB_PATH: dbPath, ...multi, ...env });
  const embedder = "embedder" in ports || config.embedKind !== "static" ? undefined : await (staticEmbedder ??= loadEmbedder(config));
  const memory = await openMemory(config, { rssBytes: () => process.memoryUsage().rss, readSecretFile, embedder, domainFiles: domainFilesBeside(dbPath), workScope: asyncWorkScope(), ...ports });
  const app = createApp(memory, { openapiYaml });
  return {
    dir, dbPath, memory, app,
    req: (method, path, body, headers = {}, peer = "127.0.0.1") =>
      Promise.resolve(app.request(path, {
        method,
        headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      }, { remoteAddr: peer })),
    close: async () => {
      await memory.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
