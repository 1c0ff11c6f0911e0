/**
 * Boots the HTTP service: parse config (refusing bad posture), open the
 * composition root, build the Hono app, listen. Used by `cairn serve` on
 * Node and `deno task serve`, so both runtimes boot identically.
 */
import { domainFilesBeside } from "./runtime/domain-files.ts";
import type { Config } from "./config/config.ts";
import { parseConfig } from "./config/parse-config.ts";
import { createApp } from "./http/app.ts";
import { parserRefusal } from "./http/parser-refusal.ts";
import { decodeSnapshotFile, encodeSnapshotFile } from "./lexical/snapshot-file.ts";
import { openMemory, openMultiDbMigration, type Memory } from "./memory.ts";
import type { MultiDbMigration } from "./domains/migrate-multi-db.ts";
import { loadCrossEncoder, loadEmbedder, loadInjectionClassifier, loadTextPool } from "./runtime/model-loader.ts";
import { dirKeyring } from "./runtime/ump-keyring.ts";
import { asyncWorkScope } from "./runtime/work-scope.ts";
import { createParsePool } from "./runtime/parse-pool.ts";
import { connectorFiles } from "./runtime/private-file.ts";
import { createPinnedFetch } from "./runtime/pinned-fetch.ts";
import {
  ensureParentDir, exitProcess, readBytes, readSecretFile, resolveHost, rssBytes, serveFetch, writeFileAtomic, type RunningServer,
  fileExists, settleHeapAfterBoot, loadSnapshotOffThread, ownerOnlyFiles, processAlive, processId, hostName,
} from "./runtime/platform.ts";

/** A booted server. */
export interface BootedServer {
  config: Config;
  memory: Memory;
  server: RunningServer;
  bootMs: number;
  close(): Promise<void>;
}

/**
 * A write-only session's cap on V8's old-generation growth per full collection (percent), unless
 * `CAIRN_HEAP_GROWING_PERCENT` names one: its live heap is small (~50–100 MB) and its garbage (turn windows, statement
 * parameters) is not: under V8's own growth a 100 MB chat import peaked at 732–840 MB, with 20 % at 463–514 MB
 * (docs/vault.md "Chat history").
 */
const WRITER_HEAP_GROWING_PERCENT = 20;

/**
 * Opens the memory for a config with this runtime's ports. `writeOnly`: a one-shot writer (`cairn import`) that
 * loads no recall index, snapshot or cross-encoder (MemoryPorts.writeOnly), with a capped heap growth.
 */
export async function openMemoryForRuntime(config: Config, o: { writeOnly?: boolean } = {}): Promise<Memory> {
  if (!config.dbUrl) {
    // Issue 23 §4: the database, its WAL, the snapshot and temp files are owner-only; a fresh data dir 0700.
    await ownerOnlyFiles(["", "-wal", "-shm", ".lexical.snap"].map((s) => `${config.dbPath}${s}`));
    await ensureParentDir(config.dbPath);
  } else if (config.nodeCache !== undefined) {
    // A server node's boot cache holds chunk text too: owner-only, in a 0700 directory.
    await ownerOnlyFiles([config.nodeCache]);
    await ensureParentDir(config.nodeCache);
  }
  // The lexical snapshot lives beside a local database file; a server node keeps the same file, with its vectors and
  // the change it covers, as its boot cache (issue 20, src/recall/node-cache.ts; CAIRN_NODE_CACHE=off: none).
  // A binary container (src/lexical/snapshot-file.ts) so boot skips parsing megabytes of base64. On Node its
  // decode starts now on a worker, beside the embedder, label and vector loads (docs/benchmarks.md "Embedded server": boot).
  const snap = config.dbUrl ? config.nodeCache : `${config.dbPath}.lexical.snap`;
  let early = o.writeOnly || snap === undefined || !(await fileExists(snap)) ? undefined : loadSnapshotOffThread(snap);
  const snapshots = snap === undefined ? undefined : {
    load: async () => {
      const first = early;
      early = undefined;
      return (first && await first) ?? decodeSnapshotFile(await readBytes(snap));
    },
    save: (data: unknown) => writeFileAtomic(snap, encodeSnapshotFile(data)),
    binary: true,
  };
  const embedder = await loadEmbedder(config);
  // Issue 25: the batch screen and embedding on worker threads (started by the first large batch).
  const textWork = await loadTextPool(config, embedder);
  const { crossEncoder, warning: rerankWarning } = o.writeOnly ? {} : await loadCrossEncoder(config);
  if (rerankWarning) console.warn(JSON.stringify({ level: "warn", code: "rerank_model_unavailable", message: rerankWarning }));
  const injectionClassifier = await loadInjectionClassifier(config);
  // SPEC §5 item 5: the operator key is re-read on every use, so rotation applies at once; an insecure key file refuses boot.
  const keyring = dirKeyring(config.umpKeyDir);
  keyring.currentSync();
  if (o.writeOnly) await settleHeapAfterBoot(config.heapGrowingPercent || WRITER_HEAP_GROWING_PERCENT);
  return await openMemory(config, {
    rssBytes, embedder, textWork, workScope: asyncWorkScope(), parseWork: await createParsePool(), crossEncoder, injectionClassifier, snapshots, readSecretFile, resolveHost, pinnedFetch: createPinnedFetch(),
    exit: exitProcess, umpKey: () => keyring.currentSync(),
    pid: processId(), pidAlive: processAlive, connectorFiles, nodeId: `${await hostName()}-${processId()}`,
    domainFiles: domainFilesBeside(config.dbPath), writeOnly: o.writeOnly,
    bootWarnings: rerankWarning ? [{ code: "rerank_model_unavailable", message: rerankWarning }] : [],
  });
}

/** Opens `cairn migrate multi-db`'s service with this runtime's file placement and process probe. */
export async function openMigrationForRuntime(config: Config): Promise<MultiDbMigration> {
  if (!config.dbUrl) await ownerOnlyFiles(["", "-wal", "-shm"].map((s) => `${config.dbPath}${s}`));
  return await openMultiDbMigration(config, { domainFiles: domainFilesBeside(config.dbPath), pidAlive: processAlive });
}

/** Boots from an environment; `portOverride` lets tests bind port 0. */
export async function bootServer(env: Record<string, string | undefined>, portOverride?: number): Promise<BootedServer> {
  const t0 = performance.now();
  const config = parseConfig(env);
  const memory = await openMemoryForRuntime(config);
  let server: RunningServer | undefined;
  try {
    // SPEC §5 item 3: with JWTs, the default roleless posture admits a token without roles to every route, admin ones included.
    if ((config.auth.jwtSecretFile || config.auth.jwtPublicKeyFile) && config.auth.rolelessPosture === "pass") {
      console.warn(JSON.stringify({ level: "warn", code: "roleless_posture_pass", message: "CAIRN_RBAC_ROLELESS_POSTURE=pass: a JWT with no roles reaches every route, admin ones included; set it to deny to refuse roleless tokens" }));
    }
    await memory.ump.sweepRetention();
    // `/openapi.yaml` is generated from the route declarations (issue 21), so nothing is read from disk.
    const app = createApp(memory);
    // The adapter passes the socket peer as `c.env.remoteAddr` (rate limiting, loopback posture).
    server = await serveFetch((req, env) => app.fetch(req, env), {
      hostname: config.bindAddr, port: portOverride ?? config.bindPort, refusal: parserRefusal,
    });
    // SPEC §3: this process serves the store only once it listens (a serve that cannot bind, e.g. EADDRINUSE, never
    // touches the stamp); a clean close stamps it clean, a boot that finds it running reports unclean.
    const last = await memory.markServing();
    if (last.last_shutdown === "unclean") console.warn(JSON.stringify({ level: "warn", message: "last shutdown was unclean: run `cairn check-consistency`" }));
    // SPEC §8: connection and RSS watchdogs tick every 30 s and only log (RSS may exit under CAIRN_RSS_RESTART=1).
    const watchdog = setInterval(() => {
      memory.security.slots.tick(Date.now());
      memory.security.rss.tick();
    }, config.watchdog.intervalMs);
    // Issue 20: the change feed's background pass keeps this node's indexes in step while no recall arrives.
    memory.changes.start();
    await settleHeapAfterBoot(config.heapGrowingPercent);
    const bootMs = Math.round(performance.now() - t0);
    const listening = server;
    return {
      config, memory, server: listening, bootMs,
      close: async () => {
        clearInterval(watchdog);
        await listening.close();
        await memory.close();
      },
    };
  } catch (e) {
    await server?.close().catch(() => undefined);
    await memory.close();
    throw e;
  }
}
