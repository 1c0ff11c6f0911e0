/**
 * The in-memory graph the recall leg walks (SPEC §1 Retrieval pipeline
 * step 6): every entity, every edge version and every entity–chunk link,
 * loaded once at boot and kept in step with writes, plus the CSR graph of
 * current edges that Personalized PageRank runs over.
 *
 * Keeping in step: a write stages a `GraphDelta` inside its transaction,
 * keyed by the first chunk it created and that chunk's content hash; the
 * delta is applied when that chunk is reported committed (`added`), so a
 * rolled-back write never reaches memory even if its chunk id is reused.
 * Deleted chunks drop their links at once; a domain drop is noticed on the
 * next query (`sync`) and its entities and edges leave memory.
 *
 * CSR rebuilds: the CSR is immutable, so edge changes mark it stale. A
 * stale CSR is rebuilt before the query when the graph has at most
 * `syncRebuildEdges` current edges (a few milliseconds); above that the
 * query uses the previous CSR and a rebuild is scheduled right after it,
 * so a burst of writes costs one rebuild, not one per write (at 100k edges
 * a rebuild takes 0.1–0.5 s). Entity–chunk links and name matching are
 * always current. Historical views (`at`) build their own CSR from the
 * edge versions in force then (the last one is cached).
 */
import type { Chunk } from "../core/types.ts";
import type { IndexHooks } from "../ingest/ports.ts";
import type { Db } from "../store/db.ts";
import { dbsOf } from "../store/domain-dbs.ts";
import { domainNames, scanGraph } from "../store/graph-read.ts";
import type { EdgeRow, EntityChunkLink, EntityRow } from "../store/graph-rows.ts";
import type { GraphDelta } from "./graph-delta.ts";
import { buildGraph, type PprGraph } from "./ppr.ts";

/** An entity as the model holds it. */
export interface EntityNode {
  id: number;
  domain: string;
  /** Lowercased key. */
  name: string;
  /** Display form. */
  display: string;
  /** Stored entity type (`note`, `tag`, `heading`, …), when known. */
  type?: string;
}

/** An edge version: transaction time as epoch ms, `supersededMs` Infinity while current. */
export interface EdgeNode {
  id: number;
  from: number;
  to: number;
  type: string;
  createdMs: number;
  supersededMs: number;
}

/**
 * The walk leaves `tagged_with` out (issue 22 item 4): two notes that share only a tag are not related, and
 * in a vault where every person note carries `person`, walking through the tag pads answers with strangers.
 */
const WALK = { typeWeights: { tagged_with: 0 } } as const;

/** Options of the model. */
export interface GraphModelOptions {
  /** Largest current-edge count rebuilt inside a query. Default 20,000. */
  syncRebuildEdges?: number;
  /** Rows per page when loading from the store. Default 10,000. */
  pageSize?: number;
  /** Runs a deferred rebuild; default `setTimeout(fn, 0)`. */
  schedule?: (fn: () => void) => void;
}

const EMPTY: ReadonlyMap<number, boolean> = new Map();
const msOf = (iso: string | undefined): number => (iso === undefined ? Infinity : Date.parse(iso));

/** The in-memory graph; also the index hook that applies staged deltas. */
export class GraphModel implements IndexHooks {
  private readonly entities = new Map<number, EntityNode>();
  private readonly byName = new Map<string, number[]>();
  private readonly edges = new Map<number, EdgeNode>();
  private readonly touching = new Map<number, number[]>();
  /** Entity → its chunks, each flagged true when the chunk is about the entity (a subject link). */
  private readonly chunksOfEntity = new Map<number, Map<number, boolean>>();
  private readonly entitiesOfChunk = new Map<number, Set<number>>();
  /** Per entity: how many of its chunk links are subject links and how many are mentions. */
  private readonly linkCounts = new Map<number, { subject: number; mention: number }>();
  private readonly pending = new Map<number, { hash: string; delta: GraphDelta }>();
  private version = 0;
  private currentCount = 0;
  private built: { graph: PprGraph; version: number } | undefined;
  private pastView: { atMs: number; version: number; graph: PprGraph } | undefined;
  private rebuildScheduled = false;
  private removedSince = false;
  private wordsMax = 1;
  private readonly syncRebuildEdges: number;
  private readonly schedule: (fn: () => void) => void;

  constructor(opts: GraphModelOptions = {}) {
    this.syncRebuildEdges = opts.syncRebuildEdges ?? 20_000;
    this.schedule = opts.schedule ?? ((fn) => void setTimeout(fn, 0));
  }

  /** Loads everything from the store and builds the current CSR. */
  static async load(db: Db, opts: GraphModelOptions = {}): Promise<GraphModel> {
    const m = new GraphModel(opts);
    // Multi-database mode: every domain's database (entity and edge ids are unique across them).
    for (const d of dbsOf(db)) await scanGraph(d.client, { entity: (e) => m.putEntity(e), edge: (e) => m.putEdge(e), link: (l) => m.link(l) }, opts.pageSize);
    m.rebuild();
    return m;
  }

  /** Stages a write's delta until its first chunk is reported committed (see the module comment). */
  stage(key: { chunkId: number; contentHash: string }, delta: GraphDelta): void {
    this.pending.set(key.chunkId, { hash: key.contentHash, delta });
  }

  /** Index hook: a chunk committed; applies the delta staged for it, if any. */
  added(chunk: Chunk): void {
    const p = this.pending.get(chunk.id);
    if (p === undefined) return;
    this.pending.delete(chunk.id);
    if (p.hash === chunk.contentHash) this.apply(p.delta);
  }

  /** Index hook: a chunk was deleted (its edges stay; its links go). */
  removed(id: number): void {
    const ents = this.entitiesOfChunk.get(id);
    if (ents === undefined) return;
    for (const e of ents) {
      const cs = this.chunksOfEntity.get(e);
      const subject = cs?.get(id);
      if (subject === undefined) continue;
      cs!.delete(id);
      const n = this.linkCounts.get(e)!;
      if (subject) n.subject--;
      else n.mention--;
    }
    this.entitiesOfChunk.delete(id);
    this.removedSince = true;
  }

  /** Applies one committed delta. */
  apply(d: GraphDelta): void {
    for (const e of d.entities) this.putEntity(e);
    for (const r of d.retired) {
      const e = this.edges.get(r.id);
      if (e !== undefined && e.supersededMs === Infinity) {
        e.supersededMs = Date.parse(r.supersededAt);
        this.currentCount--;
        this.version++;
      }
    }
    for (const e of d.inserted) this.putEdge(e);
    for (const l of d.links) this.link(l);
  }

  /** After deletions, forgets the entities and edges of domains that no longer exist (a domain drop). */
  async sync(db: Db): Promise<void> {
    if (!this.removedSince) return;
    this.removedSince = false;
    const live = await domainNames(db.client);
    const gone = new Set<number>();
    for (const e of this.entities.values()) if (!live.has(e.domain)) gone.add(e.id);
    if (gone.size === 0) return;
    for (const id of gone) {
      const e = this.entities.get(id)!;
      this.entities.delete(id);
      const list = (this.byName.get(e.name) ?? []).filter((x) => x !== id);
      if (list.length) this.byName.set(e.name, list);
      else this.byName.delete(e.name);
      for (const c of this.chunksOfEntity.get(id)?.keys() ?? []) this.entitiesOfChunk.get(c)?.delete(id);
      this.chunksOfEntity.delete(id);
      this.linkCounts.delete(id);
      for (const edgeId of this.touching.get(id) ?? []) {
        const edge = this.edges.get(edgeId);
        if (edge === undefined) continue;
        if (edge.supersededMs === Infinity) this.currentCount--;
        this.edges.delete(edgeId);
      }
      this.touching.delete(id);
    }
    this.version++;
  }

  /** The entity, if known. */
  entity(id: number): EntityNode | undefined {
    return this.entities.get(id);
  }

  /** Entity ids with this lowercased name, in every domain. */
  named(name: string): readonly number[] {
    return this.byName.get(name) ?? [];
  }

  /** Most words in any entity name (bounds query n-grams). */
  get maxWords(): number {
    return this.wordsMax;
  }

  /** Chunks linked to an entity, each with its subject flag. */
  chunksOf(entityId: number): ReadonlyMap<number, boolean> {
    return this.chunksOfEntity.get(entityId) ?? EMPTY;
  }

  /** The summed link weight of an entity's chunks: subject links weigh `subjectW`, mentions `mentionW`. */
  linkWeight(entityId: number, subjectW: number, mentionW: number): number {
    const n = this.linkCounts.get(entityId);
    return n === undefined ? 0 : n.subject * subjectW + n.mention * mentionW;
  }

  /** Entities linked to a chunk. */
  entitiesOf(chunkId: number): ReadonlySet<number> {
    return this.entitiesOfChunk.get(chunkId) ?? new Set();
  }

  /** Edges touching an entity in force at `atMs` (current ones when absent). */
  edgesAt(entityId: number, atMs?: number): EdgeNode[] {
    const out: EdgeNode[] = [];
    for (const id of this.touching.get(entityId) ?? []) {
      const e = this.edges.get(id);
      if (e !== undefined && inForce(e, atMs)) out.push(e);
    }
    return out;
  }

  /** Counts, for stats and benchmarks. */
  size(): { entities: number; edges: number; currentEdges: number; linkedChunks: number } {
    return { entities: this.entities.size, edges: this.edges.size, currentEdges: this.currentCount, linkedChunks: this.entitiesOfChunk.size };
  }

  /** The CSR graph to walk: current edges, or the edges in force at `atMs` (see the module comment). */
  graph(atMs?: number): PprGraph {
    if (atMs !== undefined) {
      if (this.pastView?.atMs !== atMs || this.pastView.version !== this.version) {
        const edges = [...this.edges.values()].filter((e) => inForce(e, atMs));
        this.pastView = { atMs, version: this.version, graph: buildGraph(edges, WALK) };
      }
      return this.pastView.graph;
    }
    if (this.built === undefined || (this.built.version !== this.version && this.currentCount <= this.syncRebuildEdges)) this.rebuild();
    else if (this.built.version !== this.version && !this.rebuildScheduled) {
      this.rebuildScheduled = true;
      this.schedule(() => {
        this.rebuildScheduled = false;
        if (this.built?.version !== this.version) this.rebuild();
      });
    }
    return this.built!.graph;
  }

  /** Rebuilds the current CSR now. */
  rebuild(): void {
    const edges: EdgeNode[] = [];
    for (const e of this.edges.values()) if (e.supersededMs === Infinity) edges.push(e);
    this.built = { graph: buildGraph(edges, WALK), version: this.version };
  }

  private putEntity(e: EntityRow): void {
    if (this.entities.has(e.id)) return;
    this.entities.set(e.id, { id: e.id, domain: e.domain, name: e.name, display: e.displayName, ...(e.type !== undefined ? { type: e.type } : {}) });
    const list = this.byName.get(e.name);
    if (list) list.push(e.id);
    else this.byName.set(e.name, [e.id]);
    this.wordsMax = Math.max(this.wordsMax, e.name.split(" ").length);
  }

  private putEdge(e: EdgeRow): void {
    if (this.edges.has(e.id)) return;
    const node: EdgeNode = { id: e.id, from: e.fromId, to: e.toId, type: e.type, createdMs: msOf(e.createdAt), supersededMs: msOf(e.supersededAt) };
    this.edges.set(e.id, node);
    for (const end of [e.fromId, e.toId]) {
      const list = this.touching.get(end);
      if (list) list.push(e.id);
      else this.touching.set(end, [e.id]);
    }
    if (node.supersededMs === Infinity) this.currentCount++;
    this.version++;
  }

  private link({ entityId, chunkId, subject }: EntityChunkLink): void {
    let cs = this.chunksOfEntity.get(entityId);
    if (!cs) this.chunksOfEntity.set(entityId, (cs = new Map()));
    const had = cs.get(chunkId);
    const now = subject || had === true;
    cs.set(chunkId, now);
    let n = this.linkCounts.get(entityId);
    if (!n) this.linkCounts.set(entityId, (n = { subject: 0, mention: 0 }));
    if (had === true) n.subject--;
    else if (had === false) n.mention--;
    if (now) n.subject++;
    else n.mention++;
    let es = this.entitiesOfChunk.get(chunkId);
    if (!es) this.entitiesOfChunk.set(chunkId, (es = new Set()));
    es.add(entityId);
  }
}

/** Transaction-time view (SPEC §4.6 `at`): created at or before `atMs` and not yet superseded then; current when absent. */
function inForce(e: EdgeNode, atMs?: number): boolean {
  if (atMs === undefined) return e.supersededMs === Infinity;
  return e.createdMs <= atMs && atMs < e.supersededMs;
}
