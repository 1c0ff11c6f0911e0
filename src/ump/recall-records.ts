/**
 * `POST /ump/recall` (SPEC §4.9; UMP notes): `{query, scope?, filter?:{kind?,
 * valid_at?}, limit?}` → `{results:[{record, score, signals}]}` over the same
 * pipeline as `/recall`. Scope, kind, visibility and the caller's token are
 * a candidate filter applied before ranking; `filter.valid_at` is the
 * recall `at` (a past point sees the version valid then). Each hit chunk is
 * served as the newest record on it the caller may see.
 *
 * Signals (this project's definitions, all deterministic): `similarity` the
 * pipeline's final score; `recency` 2^(-age/30 days) of `time.observed`;
 * `salience` the record's `lifecycle.salience` (0.5 when absent) moved by
 * feedback, +0.05 per followed and -0.05 per overridden or contradicted,
 * clamped to [0, 1]; `scope_match` the share of requested scope members the
 * record matches (1 when no scope was asked and the caller owns it, 0.5 for
 * another owner's shared record); `provenance_depth` the number of evidence
 * refs, plus one for a source, plus the versions it supersedes.
 */
import { MemoryError } from "../core/errors.ts";
import { getUmpRow } from "../store/ump-records.ts";
import { canRead, requireGrant, type ScopeLike, type UmpActor } from "./actor.ts";
import { MAX_RECALL } from "./capabilities.ts";
import { assertIntact, findRecord, viewRecord } from "./load-record.ts";
import { legacyScope, materialize } from "./materialize.ts";
import { KINDS } from "./record.ts";
import type { UmpRecord } from "./types.ts";
import type { UmpDeps } from "./ump-deps.ts";
import { isLive, type UmpMeta } from "./ump-index.ts";
import { umpObject } from "./_fields.ts";
import { routedReader } from "../store/domain-dbs.ts";

/** One result item. */
export interface RecallItem {
  record: UmpRecord;
  score: number;
  signals: { similarity: number; recency: number; salience: number; scope_match: number; provenance_depth: number };
  untrusted: true;
}

const SCOPE_KEYS = ["owner", "user", "project", "agent", "session", "visibility"] as const;
const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

interface UmpQuery {
  query: unknown;
  limit: number;
  scope: Record<string, string>;
  kinds?: Set<string>;
  validAt?: string;
}

function parse(raw: unknown): UmpQuery {
  const b = umpObject(raw);
  let limit = 5;
  if (b.limit !== undefined && b.limit !== null) {
    if (typeof b.limit !== "number" || !Number.isInteger(b.limit) || b.limit < 1 || b.limit > MAX_RECALL) {
      throw new MemoryError("limit_out_of_range", `limit must be an integer from 1 to ${MAX_RECALL}`, { min: 1, max: MAX_RECALL });
    }
    limit = b.limit;
  }
  const scope: Record<string, string> = {};
  if (b.scope !== undefined && b.scope !== null) {
    const s = umpObject(b.scope, "scope");
    for (const k of SCOPE_KEYS) {
      if (s[k] === undefined) continue;
      if (typeof s[k] !== "string") throw new MemoryError("invalid_record", `scope.${k} must be a string`, { field: `scope.${k}` });
      scope[k] = s[k] as string;
    }
  }
  const q: UmpQuery = { query: b.query, limit, scope };
  if (b.filter !== undefined && b.filter !== null) {
    const f = umpObject(b.filter, "filter");
    if (f.kind !== undefined) {
      const list = Array.isArray(f.kind) ? f.kind : [f.kind];
      if (!list.length || !list.every((k) => KINDS.includes(k as never))) {
        throw new MemoryError("invalid_record", `filter.kind must be one of ${KINDS.join(", ")}`, { field: "filter.kind" });
      }
      q.kinds = new Set(list as string[]);
    }
    if (f.valid_at !== undefined) {
      if (typeof f.valid_at !== "string" || !Number.isFinite(Date.parse(f.valid_at))) {
        throw new MemoryError("invalid_record", "filter.valid_at must be an ISO 8601 timestamp", { field: "filter.valid_at" });
      }
      q.validAt = new Date(Date.parse(f.valid_at)).toISOString();
    }
  }
  return q;
}

/** Runs one UMP recall. */
export async function recallRecords(d: UmpDeps, actor: UmpActor, raw: unknown): Promise<{ results: RecallItem[] }> {
  const q = parse(raw);
  requireGrant(actor, "read");
  const seed = await d.keys();
  const operatorDid = seed ? d.didOf(seed) : undefined;
  const nowMs = d.clock().getTime();
  const refMs = q.validAt !== undefined ? Date.parse(q.validAt) : nowMs;
  const wanted = (scope: ScopeLike, kind: string) =>
    canRead(actor, scope) && (!q.kinds || q.kinds.has(kind)) &&
    Object.entries(q.scope).every(([k, v]) => (scope as Record<string, unknown>)[k] === v);
  const pick = (chunkId: number): UmpMeta | undefined => {
    const versions = d.index.onChunk(chunkId);
    for (let i = versions.length - 1; i >= 0; i--) {
      const m = versions[i];
      if (isLive(m, refMs, nowMs) && wanted(m.scope, m.kind)) return m;
    }
    return undefined;
  };
  const legacy = legacyScope(operatorDid);
  const filter = (chunkId: number) => d.index.onChunk(chunkId).length === 0 ? wanted(legacy, "semantic") : pick(chunkId) !== undefined;
  const body: Record<string, unknown> = { query: q.query, limit: q.limit };
  if (q.validAt !== undefined) body.at = q.validAt;
  const out = await d.recall.recall(body, { filter, piiRead: actor.piiRead });
  const hits = (out.hits as { id: number; score: number }[]) ?? [];
  await materialize(d, hits.map((h) => h.id));
  const results: RecallItem[] = [];
  for (const h of hits) {
    const m = pick(h.id);
    if (!m) continue;
    const found = await findRecord(routedReader(d.db), m.id);
    // SPEC §1 Trust rules: the server verifies before it emits; a record that fails is left out.
    if (!found || !(await intact(found.record))) continue;
    const row = (await getUmpRow(routedReader(d.db), m.id))!;
    const record = viewRecord(found.record, actor, seed, { seam: true }, d.didOf);
    results.push({ record, score: h.score, signals: signals(found.record, h.score, row.feedback, q.scope, actor, nowMs), untrusted: true });
  }
  return { results };
}

async function intact(record: UmpRecord): Promise<boolean> {
  try {
    await assertIntact(record);
    return true;
  } catch {
    return false;
  }
}

function signals(r: UmpRecord, score: number, fb: Record<string, number>, asked: Record<string, string>, actor: UmpActor, nowMs: number): RecallItem["signals"] {
  const observed = Date.parse(r.time.observed);
  const ageDays = Math.max(0, (nowMs - observed) / 86_400_000);
  const base = r.lifecycle?.salience ?? 0.5;
  const salience = Math.min(1, Math.max(0, base + 0.05 * ((fb.followed ?? 0) - (fb.overridden ?? 0) - (fb.contradicted ?? 0))));
  const keys = Object.keys(asked);
  const scopeMatch = keys.length
    ? keys.filter((k) => (r.scope as unknown as Record<string, unknown>)[k] === asked[k]).length / keys.length
    : r.scope.owner === actor.subject ? 1 : 0.5;
  const depth = (r.provenance?.evidence?.length ?? 0) + (r.provenance?.source ? 1 : 0) + (r.supersedes?.length ?? 0);
  return {
    similarity: r6(score), recency: r6(Number.isFinite(ageDays) ? 2 ** (-ageDays / 30) : 0), salience: r6(salience),
    scope_match: r6(scopeMatch), provenance_depth: depth,
  };
}
