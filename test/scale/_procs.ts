/** Real `cairn serve` processes for the issue 20 tests: spawned from bin/cairn.mjs on a free loopback port. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ServeProc, spawnServe } from "../_helpers/serve.ts";

/** A running server process. */
export type ServerProc = ServeProc;

/** Spawns `node bin/cairn.mjs serve` with `env` (lexical only unless it says otherwise) and waits for /health. */
export async function startServer(env: Record<string, string>): Promise<ServerProc> {
  // A server node keeps its boot cache in its data directory (issue 20): a temp one here, not the repository's ./data.
  const cache: Record<string, string> = env.CAIRN_DB_URL !== undefined && env.CAIRN_NODE_CACHE === undefined ? { CAIRN_NODE_CACHE: join(mkdtempSync(join(tmpdir(), "cairn-node-")), "node-cache") } : {};
  return await spawnServe({ CAIRN_EMBED_KIND: "none", ...cache, ...env });
}
