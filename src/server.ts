/**
 * Boots the HTTP service: parse config (refusing bad posture), open the
 * composition root, build the Hono app, listen. Used by `cairn serve` on
 * Node and `deno task serve`, so both runtimes boot identically.
 */
import type { Config } from "./config/config.ts";
import { parseConfig } from "./config/parse-config.ts";
import { createApp } from "./http/app.ts";
import { openMemory, type Memory } from "./memory.ts";
import { loadCrossEncoder, loadEmbedder } from "./runtime/model-loader.ts";
import {
  ensureParentDir, exitProcess, packageRoot, readSecretFile, readTextFile, resolveHost, rssBytes, serveFetch, writeFileAtomic, type RunningServer,
} from "./runtime/platform.ts";

/** A booted server. */
export interface BootedServer {
  config: Config;
  memory: Memory;
  server: RunningServer;
  bootMs: number;
  close(): Promise<void>;
}

/** Opens the memory for a config with this runtime's ports. */
export async function openMemoryForRuntime(config: Config): Promise<Memory> {
  if (!config.dbUrl) await ensureParentDir(config.dbPath);
  const embedder = await loadEmbedder(config);
  const crossEncoder = await loadCrossEncoder(config);
  // The lexical snapshot lives beside a local database file; a remote server rebuilds it at boot.
  const snap = config.dbUrl ? undefined : `${config.dbPath}.lexical.json`;
  const snapshots = snap === undefined ? undefined : {
    load: async () => JSON.parse(await readTextFile(snap)),
    save: (data: unknown) => writeFileAtomic(snap, JSON.stringify(data)),
  };
  return await openMemory(config, { rssBytes, embedder, crossEncoder, snapshots, readSecretFile, resolveHost, exit: exitProcess });
}

/** Boots from an environment; `portOverride` lets tests bind port 0. */
export async function bootServer(env: Record<string, string | undefined>, portOverride?: number): Promise<BootedServer> {
  const t0 = performance.now();
  const config = parseConfig(env);
  const memory = await openMemoryForRuntime(config);
  try {
    const openapiYaml = await readTextFile(`${packageRoot()}/openapi.yaml`);
    const app = createApp(memory, { openapiYaml });
    // The adapter passes the socket peer as `c.env.remoteAddr` (rate limiting, loopback posture).
    const server = await serveFetch((req, env) => app.fetch(req, env), { hostname: config.bindAddr, port: portOverride ?? config.bindPort });
    // SPEC §8: connection and RSS watchdogs tick every 30 s and only log (RSS may exit under CAIRN_RSS_RESTART=1).
    const watchdog = setInterval(() => {
      memory.security.slots.tick(Date.now());
      memory.security.rss.tick();
    }, config.watchdog.intervalMs);
    const bootMs = Math.round(performance.now() - t0);
    return {
      config, memory, server, bootMs,
      close: async () => {
        clearInterval(watchdog);
        await server.close();
        await memory.close();
      },
    };
  } catch (e) {
    await memory.close();
    throw e;
  }
}
