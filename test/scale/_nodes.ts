/** Test harness for issue 20: extra nodes over an existing store (a second process's view of the same file or server). */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createStaticEmbedder, DEFAULT_STATIC_ASSET_PATH } from "../../src/embed/static-embedder.ts";
import { parseConfig } from "../../src/config/parse-config.ts";
import { createApp } from "../../src/http/app.ts";
import { openMemory, type Memory } from "../../src/memory.ts";
import { readSecretFile } from "../../src/runtime/platform.ts";

const root = resolve(new URL("../..", import.meta.url).pathname);

/** The shipped static embedder (real vectors, no download). */
export const staticEmbedder = () => createStaticEmbedder(new Uint8Array(readFileSync(resolve(root, DEFAULT_STATIC_ASSET_PATH))));

/** One node: its memory, app and a JSON request helper. */
export interface TestNode {
  memory: Memory;
  req(method: string, path: string, body?: unknown): Promise<Response>;
  json(method: string, path: string, body?: unknown): Promise<any>;
  close(): Promise<void>;
}

/** Opens a node on `env` (CAIRN_DB_PATH or CAIRN_DB_URL); with `vectors`, the static embedder. */
export async function openNode(env: Record<string, string>, o: { vectors?: boolean } = {}): Promise<TestNode> {
  const memory = await openMemory(parseConfig(env), { rssBytes: () => process.memoryUsage().rss, readSecretFile, ...(o.vectors ? { embedder: staticEmbedder() } : {}) });
  const app = createApp(memory);
  const req = (method: string, path: string, body?: unknown) => Promise.resolve(app.request(path, {
    method, headers: body === undefined ? {} : { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body),
  }, { remoteAddr: "127.0.0.1" }));
  return {
    memory, req,
    json: async (method, path, body) => await (await req(method, path, body)).json(),
    close: () => memory.close(),
  };
}

/** Ids of a recall's hits. */
export async function recallIds(n: TestNode, query: string, extra: Record<string, unknown> = {}): Promise<number[]> {
  const r = await n.json("POST", "/recall", { query, limit: 10, ...extra });
  return (r.hits as { id: number }[]).map((h) => h.id);
}
