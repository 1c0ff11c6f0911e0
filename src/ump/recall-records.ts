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
import { parseWith } from "../core/schema.ts";
import type { RecallInput } from "../recall/recall-schema.ts";
import { getUmpRow } from "../store/ump-records.ts";
import { canRead, requireGrant, type ScopeLike, type UmpActor } from "./actor.ts";
import { assertIntact, findRecord, viewRecord } from "./load-record.ts";
import { legacyScope, materialize } from "./materialize.ts";
import type { UmpRecord } from "./types.ts";
import type { UmpDeps } from "./ump-deps.ts";
import { isLive, type UmpMeta } from "./ump-index.ts";
import { UmpRecallBody, type UmpRecallInput } from "./ump-schema.ts";
import { routedReader } from "../store/domain-dbs.ts";

/** One result item. */
export interface RecallItem {
  record: UmpRecord;
  score: number;
  signals: { similarity: number; recency: number; salience: number; scope_match: number; provenance_depth: number };
  untrusted: true;
}

const r6 = (x: number) => Math.round(x * 1e6) / 1e6;

interface UmpQuery {
  query: string;
  limit: number;
  scope: Record<string, string>;
  kinds?: Set<string>;
  validAt?: string;
}

function parse(raw: unknown): UmpQuery {
  const b = parseWith(UmpRecallBody, raw);
  const scope: Record<string, string> = {};
  for (const [k, v] of Object.entries(b.scope ?? {})) if (v !== undefined) scope[k] = v;
  const q: UmpQuery = { query: b.query, limit: b.limit ?? 5, scope };
  const kind = b.filter?.kind;
  if (kind !== undefined) q.kinds = new Set(Array.isArray(kind) ? kind : [kind]);
  if (b.filter?.valid_at !== undefined) q.validAt = new Date(Date.parse(b.filter.valid_at)).toISOString();
  return q;
}

/** Runs one UMP recall. */
export async function recallRecords(d: UmpDeps, actor: UmpActor, raw: UmpRecallInput): Promise<{ results: RecallItem[] }> {
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
  const body: RecallInput = { query: q.query, limit: q.limit };
  if (q.validAt !== undefined) body.at = q.validAt;
  const { hits } = await d.recall.recall(body, { filter, piiRead: actor.piiRead });
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
