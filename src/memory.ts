/**
 * The composition root (STYLE rule 3): `openMemory(config, ports)` builds
 * every service once. HTTP, the CLI, MCP and the file binding are thin
 * bindings over the returned `Memory`, so behaviour is identical across them.
 */
import { createAuditService } from "./audit/audit-service.ts";
import { createIdentifierRef } from "./audit/identifier-ref.ts";
import type { Config } from "./config/config.ts";
import { createDomainService } from "./domains/domain-service.ts";
import type { WriteContext } from "./ingest/context.ts";
import { ingestStructured } from "./ingest/ingest-structured.ts";
import { ingestBatch } from "./ingest/ingest-batch.ts";
import { ingestAdd, ingestMemory } from "./ingest/ingest-memory.ts";
import { ingestMarkdown, type MarkdownGraphPort } from "./ingest/ingest-markdown.ts";
import { ingestConversation } from "./conversation/ingest-conversation.ts";
import { createQuarantineService } from "./quarantine/quarantine-service.ts";
import { deleteMemory, parseChunkId } from "./lifecycle/delete-memory.ts";
import { health, healthDb, stats, type HealthDeps } from "./ops/health-service.ts";
import { openStore } from "./store/open-store.ts";
import { ensureVectorTable } from "./store/vectors.ts";
import { createRecallEngine, type RecallCallOptions } from "./recall/recall-engine.ts";
import type { RecallInput } from "./recall/recall-schema.ts";
// governance (issue 6)
import { checkConsistency, type ConsistencyCheck } from "./consistency/check-consistency.ts";
import { createErasureService, type ErasureService } from "./erasure/erasure-service.ts";
import { createSnapshotGuard } from "./erasure/snapshot-guard.ts";
import { createWalGuard } from "./erasure/wal-guard.ts";
import { describeShutdown } from "./ops/shutdown-report.ts";
import { readShutdownStamp, type ShutdownStamp } from "./store/shutdown-stamp.ts";
import { claimStamp, releaseStamp, type StampDeps } from "./ops/stamp-owner.ts";
import { createConsolidateService } from "./review/consolidate-service.ts";
import { defaultReadCanonical } from "./review/read-canonical.ts";
import { cachedTemporalSource } from "./review/link-cache.ts";
import { temporalFilter } from "./review/recall-filter.ts";
import { createReviewService } from "./review/review-service.ts";
import { deleteLinksTouching } from "./store/consolidation.ts";
import { GraphModel } from "./graph/graph-model.ts";
import { createGraphLeg, DEFAULT_GRAPH_LEG_PARAMS } from "./graph/graph-leg.ts";
import { createGraphService } from "./graph/graph-service.ts";
import { createMarkdownGraphPort } from "./graph/markdown-graph.ts";
// --- auth, limits and outbound (issue 8) ---
import { loadSecrets } from "./auth/load-credentials.ts";
import { createSecurityServices } from "./auth/security-services.ts";
import { createOptInWebhooks } from "./outbound/opt-in-webhooks.ts";
import type { TemporalFilter } from "./recall/ports.ts";
import { composeTemporalFilters } from "./recall/compose-temporal.ts";
import { createUmpService } from "./ump/ump-service.ts";
import { createSourceService } from "./sources/source-service.ts";
import { createParcelService } from "./parcel/parcel-service.ts";
import { createDidCache } from "./ump/operator-did.ts";
// --- workflow (issue 16) ---
import { loadBridgeDigests } from "./workflow/bridge-config.ts";
import { createWorkflowService } from "./workflow/workflow-service.ts";
// --- claims loop and the model-provider lane (issue 17) ---
import { createClaimService } from "./claims/claim-service.ts";
import { createOutboundClient } from "./outbound/outbound-client.ts";
import { loadProviderKey } from "./provider/provider-key.ts";
import { createProviderService } from "./provider/provider-service.ts";
// --- knowledge base (issue 17) ---
import { createKbService } from "./kb/kb-service.ts";
import { createConnectorService } from "./connectors/connector-service.ts";
// --- scale-out (issue 20) ---
import { followEveryDatabase } from "./changefeed/follow-writers.ts";
import { maxChangeSeq } from "./store/chunk-changes.ts";
import { dbsOf, groupIds } from "./store/domain-dbs.ts";
import { openDomainDbs } from "./domains/open-domain-dbs.ts";
import { firstShardedDomain } from "./store/move-domain.ts";
import { MemoryError } from "./core/errors.ts";
import { directScope, slicer } from "./core/deadline.ts";
import type { Db } from "./store/db.ts";
import type { Memory, MemoryPorts } from "./memory-types.ts";
import { createPostureWarnings } from "./ops/boot-warnings.ts";
export type { Memory, MemoryPorts } from "./memory-types.ts";
export { openMultiDbMigration } from "./domains/open-multi-db-migration.ts";

/** Opens the store and builds the services. */
export async function openMemory(config: Config, ports: MemoryPorts): Promise<Memory> {
  // Secret files are read (and their modes checked) before anything opens: a bad one refuses boot (issue 8).
  const secrets = await loadSecrets(config, ports.readSecretFile);
  const providerKey = await loadProviderKey(config.provider, ports.readSecretFile);
  const db = await openStore(config.dbUrl ? { url: config.dbUrl, authToken: config.dbAuthToken } : { path: config.dbPath, durability: config.durability });
  const bridgeDigests = await loadBridgeDigests(config.workflow.bridgeConfigFiles, ports.readSecretFile);
  const clock = ports.clock ?? (() => new Date());
  // SPEC §8: a request's deadline reaches its transactions (src/core/deadline.ts): expired work never commits.
  const work = ports.workScope ?? directScope;
  const gate: NonNullable<Db["gate"]> = { enter: () => work.current()?.check(), commit: () => work.current()?.commit() };
  db.gate = gate;
  if (ports.embedder) await ensureVectorTable(db.client, ports.embedder.id, ports.embedder.dim);
  // Issue 20: with CAIRN_MULTI_DB=true each domain's rows live in its own database (docs/scale-out.md "One database per domain").
  const domainDbs = config.multiDb
    ? await openDomainDbs(db, ports.domainFiles, { durability: config.durability, vectors: ports.embedder && { id: ports.embedder.id, dim: ports.embedder.dim }, gate })
    : undefined;
  // A store whose domains have their own databases, opened as one file, would silently miss their rows: refused.
  const sharded = config.multiDb ? undefined : await firstShardedDomain(db.client);
  if (sharded !== undefined) {
    db.close();
    throw new MemoryError("boot_refused", `domain '${sharded}' has its own database (multi-database mode): set CAIRN_MULTI_DB=true`);
  }
  // Identifiers in audit details are salted hashes under the connectors' subject salt (issue 35; src/audit/identifier-ref.ts).
  const saltPath = `${config.connectors.configDir}/connectors/subject-salt`;
  const files = ports.connectorFiles;
  const audit = createAuditService(db, clock, createIdentifierRef(
    files && { read: () => files.read(saltPath, "subject salt file"), createNew: (text) => files.createNew(saltPath, text) },
    (e) => (ports.log ?? defaultLog)("warn", "subject salt file unusable: audit identifiers hashed with a per-process salt", { error: String(e) }),
  ));
  // Every chunk write and delete records one audit row in its own transaction (SPEC §1 item 5).
  const write: WriteContext = { db, clock, embedder: ports.embedder, indexHooks: [], txHooks: [audit.hook], maxDocs: config.maxDocs,
    injectionPolicy: config.injectionPolicy, classifier: ports.injectionClassifier, textWork: ports.textWork, work, parseWork: ports.parseWork };
  const warnings = createPostureWarnings(ports.bootWarnings);
  const healthDeps: HealthDeps = {
    db, rssBytes: ports.rssBytes,
    // SPEC §1 Trust rules: the rules always run; the optional local classifier is "on" once loaded, else "absent".
    sections: [() => ({
      injection_classifier: ports.injectionClassifier ? "on" : "absent", injection_classifier_loaded: ports.injectionClassifier !== undefined,
      injection_screen: ports.injectionClassifier ? "rules+classifier" : "rules",
      injection_policy: config.injectionPolicy, allow_policy_bypasses: false,
      // SPEC §1 step 5: the rerank tier fails open; `rerank_model` says whether a configured cross-encoder loaded.
      rerank_tier: ports.crossEncoder ? "cross_encoder" : "builtin",
      rerank_model: ports.crossEncoder ? "loaded" : config.rerankModelDir ? "failed" : "absent",
      roleless_posture: config.auth.rolelessPosture,
    }), () => {
      const list = warnings.list();
      return list.length ? { warnings: list } : {};
    }],
    limits: { maxDocs: config.maxDocs, maxDbMib: config.maxDbMib, maxRssMib: config.maxRssMib },
  };
  const domains = createDomainService(db, clock, (ids) => {
    for (const id of ids) for (const h of write.indexHooks) h.removed(id);
  }, write.txHooks, domainDbs);
  // Issue 20: the change cursor is read before the indexes load, so a change committed during the load is replayed.
  const ownsIn = (d: typeof db) => (id: number) => groupIds(db, [id]).some(([x]) => x === d);
  const feedCursors = await Promise.all(dbsOf(db).map(async (d) => ({ db: d, cursor: await maxChangeSeq(d.client), owns: ownsIn(d) })));
  const recallEngine = await createRecallEngine({
    db, embedder: ports.embedder, snapshots: ports.snapshots, crossEncoder: ports.crossEncoder, clock, injectionPolicy: config.injectionPolicy, classifier: ports.injectionClassifier, budgetMs: config.recallBudgetMs, work,
    graphEnabled: config.recallGraphEnabled, domainExists: (n) => domains.exists(n),
    trace: async (path) => (await audit.record({ action: "recall_trace", detail: path })).id,
    vectorIndex: config.vectorIndex, vectorScanMax: config.vectorScanMax, remote: config.dbUrl !== undefined,
    nodeVectorRows: config.nodeVectorRows, indexes: !ports.writeOnly,
  });
  // A write-only session (ports.writeOnly, `cairn import`) keeps no index: its writes reach other processes through
  // the change feed (triggers on the chunk table), and a later boot builds from the store.
  const indexed = !ports.writeOnly;
  if (indexed) write.indexHooks.push(recallEngine.index);
  // Issue 20: how the matrix holds its rows — float32, int8 with exact scores read back (embedded), or int8 (a node).
  const rows = (v = recallEngine.index.vectors) => (!v ? "none" : v.approximate ? "int8" : v.bytesPerComponent === 1 ? "int8+exact" : "float32");
  healthDeps.sections.push(() => ({ vector_index: recallEngine.vectorLeg, vector_rows: rows() }));
  // --- governance (issue 6) ---
  const review = createReviewService({ ctx: write, audit, pipeline: ports.readCanonical ?? defaultReadCanonical(), posture: config.writePosture });
  write.review = review.gate;
  // A deleted chunk takes its consolidation links with it, in the delete's transaction.
  write.txHooks.push(async (tx, ev) => {
    if (ev.chunkId !== undefined && ev.action === "delete") await deleteLinksTouching(tx, [ev.chunkId]);
  });
  const temporalSource = cachedTemporalSource(db.client, (id) => recallEngine.index.labels.get(id));
  // Consolidation's filter composes with UMP's below (one temporal seam, every feature's filter).
  const consolidationFilter: TemporalFilter = (ids, o) => temporalFilter(temporalSource, ids, { ...o, nowMs: clock().getTime() });
  healthDeps.sections.push(() => ({ write_posture: config.writePosture }));
  const consolidate = createConsolidateService({ ctx: write, audit });
  // After each committed erasure, listeners (the opt-in erasure webhook) hear of it in the background.
  const erasureCore = createErasureService({ ctx: write, audit, afterErasure: (n) => void webhooks.emitErasure(n) });
  // The on-disk lexical snapshot must not outlive a removal (src/erasure/snapshot-guard.ts); a stale one found at boot goes too.
  const snapshotGuard = createSnapshotGuard(ports.snapshots, (e) => (ports.log ?? defaultLog)("warn", "lexical snapshot invalidation failed", { error: String(e) }));
  write.indexHooks.push(snapshotGuard);
  // Issue 23 §4: after any removal the WAL is folded in and truncated, so erased text leaves `-wal` too.
  const walGuard = createWalGuard(db, (e) => (ports.log ?? defaultLog)("warn", "WAL checkpoint after erasure failed", { error: String(e) }));
  write.indexHooks.push(walGuard);
  // A server node's cache that held chunks deleted since it was written is overwritten now (issue 20).
  if (recallEngine.lexicalSource === "rebuilt" || (recallEngine.bootCache?.applied?.removed ?? 0) > 0) {
    snapshotGuard.invalidate();
    await snapshotGuard.settled();
  }
  const erasure: ErasureService = {
    ...erasureCore,
    // Answer only once the snapshot file no longer holds the erased text.
    async purge(b) { const r = await erasureCore.purge(b); await snapshotGuard.settled(); await walGuard.settled(); return r; },
    async dsar(b) {
      const r = await erasureCore.dsar(b);
      // Workflow, claim and other rows an erasure rewrote hold no chunk id: checkpoint every database all the same (issue 35).
      if (r.certificate) walGuard.sweep();
      await snapshotGuard.settled();
      await walGuard.settled();
      return r;
    },
  };
  // --- end governance ---
  // --- auth, limits and outbound (issue 8) ---
  const log = ports.log ?? defaultLog;
  const webhooks = createOptInWebhooks({
    alertUrl: config.outbound.alertWebhookUrl, alertSecret: secrets.webhooks.alert,
    erasureUrl: config.outbound.erasureWebhookUrl, erasureSecret: secrets.webhooks.erasure,
    allowLoopback: config.outbound.allowLoopback, resolve: ports.resolveHost ?? (() => Promise.resolve([])), now: clock, log,
    ...(ports.pinnedFetch ? { pinnedFetch: ports.pinnedFetch } : {}),
  });
  const security = createSecurityServices({
    config, credentials: secrets.credentials, channelWebhookSecret: secrets.webhooks.channel, clock, rssBytes: ports.rssBytes,
    audit: (ev) => audit.record(ev), exit: ports.exit ?? (() => undefined), log,
    alert: (kind, message, details) => void webhooks.alert({ kind, message, details }),
  });
  db.observer = security.metrics;
  // graph (issue 5): in-memory model kept in step with writes, markdown port, recall leg (SPEC §1 step 6, §2.6, §4.6)
  const graphModel = indexed ? await GraphModel.load(db) : new GraphModel();
  if (indexed) {
    write.graphSink = (key, delta) => graphModel.stage(key, delta);
    write.indexHooks.push(graphModel);
  }
  const graph = Object.assign(createGraphService({ db, audit: (ev) => audit.record(ev) }), {
    model: graphModel, legParams: { ...DEFAULT_GRAPH_LEG_PARAMS },
  });
  recallEngine.setGraphLeg(createGraphLeg(graphModel, db, () => graph.legParams));
  let markdownGraph: MarkdownGraphPort | undefined = createMarkdownGraphPort(write.graphSink, work);
  // --- ump (issue 7) ---
  const umpKey = ports.umpKey ?? (() => undefined);
  const ump = await createUmpService({
    db, write, clock, audit, recall: recallEngine, keys: () => Promise.resolve(umpKey()),
    posture: config.writePosture, operatorBearer: secrets.credentials.bearerToken,
    ensureDomain: async (name) => void (await domains.create(name)),
  });
  // The guard accepts capability tokens signed by the current operator key; the UMP layer re-checks them per request.
  security.authenticator.setCapabilityTrust(() => ump.capabilityTrust(umpKey()));
  write.txHooks.push(ump.txHook);
  review.addPromotionHook(ump.promoted);
  write.indexHooks.push(ump.indexHooks);
  // --- scale-out (issue 20): other processes' and nodes' chunk writes reach this process's indexes ---
  const nodeId = config.nodeId ?? ports.nodeId ?? `cairn-${ports.pid ?? 0}`;
  const changes = followEveryDatabase({
    pollMs: config.changePollMs, labels: recallEngine.index.labels,
    // A server node's cache file follows removals made by other nodes too (src/erasure/snapshot-guard.ts).
    followers: [recallEngine.index, graphModel, ump.indexHooks, ...(db.local ? [] : [snapshotGuard])], vectors: recallEngine.index.vectors !== undefined,
    applyGraph: (g) => graphModel.apply({ entities: g.entities, inserted: g.edges, retired: [], links: g.links }),
    followUmp: (ids) => ump.followChunks(ids),
    onError: (e) => log("warn", "change feed pass failed", { error: String(e) }),
    // Another writer's large batch is applied a slice at a time, so /health is answered meanwhile (SPEC §8).
    pace: slicer(work.yieldNow),
  }, feedCursors);
  // Every recall (HTTP, UMP, MCP, CLI) first applies the changes committed before it: a write acknowledged by any
  // process or node is recallable here at once (docs/scale-out.md "Several nodes over one libSQL server").
  const recallLocal = recallEngine.recall;
  recallEngine.recall = async (body, opts) => {
    if (!indexed) return await recallLocal(body, opts);
    if (domainDbs !== undefined) {
      // A domain given its database since boot (by another process: one registry read; or here) is followed from its
      // first change (docs/scale-out.md "One database per domain").
      await domainDbs.refresh();
      const open = dbsOf(db);
      changes.retain(open);
      for (const d of open) if (!changes.followed(d)) changes.follow({ db: d, cursor: 0, owns: ownsIn(d) });
    }
    await changes.catchUp();
    return await recallLocal(body, opts);
  };
  healthDeps.sections.push(async () => ({ node: { id: nodeId, ...(await changes.status()), ...(recallEngine.bootCache ? { boot_cache: recallEngine.bootCache } : {}) } }));
  // Every feature's temporal filter composes into the one seam.
  const temporalFilters: TemporalFilter[] = [consolidationFilter, ump.temporalFilter];
  recallEngine.setTemporalFilter(composeTemporalFilters(temporalFilters));
  const sources = createSourceService({
    db, write, clock, audit, ingestMarkdown: (body, opts) => ingestMarkdown(write, body, { ...opts, graph: markdownGraph }),
  });
  // --- end ump ---
  // --- parcels (issue 14) ---
  const parcels = createParcelService({
    db, ctx: write, audit, clock, keys: umpKey, didOf: createDidCache(), domainDbs,
    snapshotLimits: { maxBytes: config.snapshotLimits.maxExpandedBytes, maxLines: config.snapshotLimits.maxLines },
  });
  // --- workflow (issue 16): approvals of its review doors run its hooks; recall hits feed the solve signal ---
  const workflow = createWorkflowService({
    db, audit, clock, policy: config.injectionPolicy, reaskWindowDays: config.workflow.reaskWindowDays, bridgeDigests,
  }, review);
  const recallAndSignal = async (body: RecallInput, opts?: RecallCallOptions) => {
    const out = await recallEngine.recall(body, opts);
    const ids = out.hits.map((h) => h.id);
    if (ids.length > 0) await workflow.noteLookups(ids).catch((e) => log("warn", "solve signal not recorded", { error: String(e) }));
    return out;
  };
  // --- end workflow ---
  // --- claims loop and the model-provider lane (issue 17): the lane is never wired into recall ---
  const claims = createClaimService({ db, audit, clock });
  const pc = config.provider;
  const provider = createProviderService({
    chat: pc && providerKey !== undefined
      ? {
        endpoint: pc.endpoint, key: providerKey, model: pc.model, name: pc.name, maxTokens: pc.maxTokens, meter: security.metrics,
        client: createOutboundClient({
          allowedOrigins: [new URL(pc.endpoint).origin], resolve: ports.resolveHost ?? (() => Promise.resolve([])),
          ...(ports.pinnedFetch ? { pinnedFetch: ports.pinnedFetch } : {}),
          allowLoopback: config.outbound.allowLoopback, timeoutMs: pc.timeoutMs,
        }),
      }
      : undefined,
    getRun: (id) => workflow.getRun(id, { piiRead: false }),
    fileProposal: (p) => review.file(p),
  });
  healthDeps.sections.push(() => ({ provider_lane: provider.enabled ? "on" : "off" }));
  // --- end claims and provider ---
  // --- knowledge base (issue 17): approved captures become article revisions; translations are a review door ---
  const kb = createKbService({ db, audit, clock, policy: config.injectionPolicy });
  review.addPromotionHook(kb.promotionHook);
  review.onDecision(kb.translateDoor, kb.translationHook);
  write.txHooks.push(kb.txHook);
  // --- end knowledge base ---
  let closed = false;
  let serving: ShutdownStamp | undefined;
  const pid = ports.pid ?? 0;
  // This process runs a server only once it owns the stamp (a `status` process sharing a reused pid does not).
  const alive = (p: number) => (p === pid ? serving !== undefined : ports.pidAlive?.(p) ?? false);
  const stampDeps: StampDeps = { write: (fn) => db.write(fn), pid, alive: (p) => ports.pidAlive?.(p) ?? false, now: clock };
  const shutdownReport = async () => describeShutdown(await readShutdownStamp(db.client), alive);
  healthDeps.sections.push(async () => ({ shutdown: await shutdownReport(), durability_setting: config.durability }));
  // --- connectors (issue 15): operator-initiated syncs through the outbound guard; cases go to the workflow ---
  const connectors = createConnectorService({
    write, audit, sources, applyCase: (env, o) => workflow.applyCase(env, { ...o, actor: o.origin }), clock,
    configDir: config.connectors.configDir, families: config.connectors.families, allowLoopback: config.outbound.allowLoopback,
    resolve: ports.resolveHost ?? (() => Promise.resolve([])), files: ports.connectorFiles, sleep: ports.connectorSleep,
    ...(ports.pinnedFetch ? { pinnedFetch: ports.pinnedFetch } : {}),
  });
  return {
    config, work, db, write, domains, audit, ump, sources, parcels, workflow, claims, provider, kb, connectors, nodeId, changes,
    ingest: (body) => ingestStructured(write, body),
    ingestBatch: (body) => ingestBatch(write, body),
    ingestMarkdown: (body, opts) => ingestMarkdown(write, body, { ...opts, graph: markdownGraph }),
    setMarkdownGraph: (port) => void (markdownGraph = port),
    ingestMemory: (body) => ingestMemory(write, body, config.ingestSkipPatterns),
    add: (body) => ingestAdd(write, body),
    ingestConversation: (body, opts) => ingestConversation(write, body, config.ingestSkipPatterns, { auditRef: audit.ref, ...opts }),
    quarantine: createQuarantineService(write),
    graph,
    recallEngine,
    recall: recallAndSignal,
    deleteMemory: async (rawId) => {
      const r = await deleteMemory(write, parseChunkId(rawId));
      await snapshotGuard.settled();
      await walGuard.settled();
      return r;
    },
    review, consolidate, erasure,
    checkConsistency: async () => {
      const r = await checkConsistency(db);
      const s = await shutdownReport();
      const check: ConsistencyCheck = s.last_shutdown === "unclean"
        ? { name: "clean_shutdown", ok: false, count: 1, detail: `the server (pid ${s.pid}) did not shut down cleanly after booting at ${s.booted_at}` }
        : { name: "clean_shutdown", ok: true, count: 0, detail: s.last_shutdown === "clean" ? "last shutdown was clean" : s.server_running ? "server running" : "no server run recorded" };
      return { ok: r.ok && check.ok, checks: [...r.checks, check] };
    },
    async markServing() {
      // SPEC §3: the stamp belongs to one live server; a second one beside it leaves it alone (src/ops/stamp-owner.ts).
      const claim = await claimStamp(stampDeps);
      if ("owned" in claim) serving = claim.owned;
      else log("warn", "another server process owns this store's shutdown stamp; this one will not change it", { owner_pid: claim.heldBy });
      return await shutdownReport();
    },
    shutdownReport,
    health: () => health(db),
    healthDb: () => healthDb(healthDeps),
    stats: () => stats(healthDeps),
    ready: async () => ({ ready: !closed && (await health(db)).status === "ok" }),
    security, webhooks, warnings,
    onErasure: (l) => webhooks.onErasure(l),
    emitErasure: (n) => webhooks.emitErasure(n),
    log,
    addIndexHooks: (h) => void write.indexHooks.push(h),
    addTxHook: (h) => void write.txHooks.push(h),
    close: async () => {
      if (closed) return;
      closed = true;
      changes.stop();
      // The lexical snapshot saved below must hold every change its key (the audit head) covers (a write-only
      // session saves none).
      if (indexed) await changes.catchUp().catch(() => undefined);
      await snapshotGuard.settled();
      // A server node's cache records the last change its indexes hold (issue 20).
      await recallEngine.persist(db.local ? undefined : (await changes.status()).cursor).catch(() => undefined);
      // Issue 23 §4: a clean shutdown leaves no WAL behind (erased text included); SPEC §3: then the clean stamp.
      await walGuard.settled();
      if (serving !== undefined) await releaseStamp(stampDeps, serving).catch(() => undefined);
      await db.checkpoint().catch(() => undefined);
      await domainDbs?.close();
      db.close();
      await ports.textWork?.close().catch(() => undefined);
      await ports.parseWork?.close().catch(() => undefined);
    },
  };
}

function defaultLog(level: "warn" | "error", message: string, fields: Record<string, unknown>): void {
  (level === "error" ? console.error : console.warn)(JSON.stringify({ level, message, ...fields }));
}
