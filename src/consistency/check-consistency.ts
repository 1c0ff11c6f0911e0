/**
 * `cairn check-consistency` (SPEC §4.12; defined by this project): checks
 * that the store agrees with itself and with its audit log.
 *
 * | check | fails when |
 * |---|---|
 * | audit_chain | `GET /audit/verify` would name a broken link |
 * | orphan_vectors | a vector row has no chunk |
 * | dangling_relation_owners | a relation names a deleted chunk as owner |
 * | dangling_links | a proposed/approved consolidation link has an end that is gone |
 * | supersede_cycle | approved `supersedes` links form a cycle |
 * | promoted_missing | an approval's `promoted_chunk_id` is neither stored nor tombstoned |
 * | proposal_state | a proposal's status disagrees with its decision columns |
 * | tombstoned_present | a tombstoned chunk id is still stored, unless the tombstone is a soft one (a soft UMP forget or a retention expiry retires the record and keeps the chunk, SPEC §3) whose record is no longer live |
 * | stored_text_nul | a stored text holds a NUL (detail: `table.column rowid, …`) |
 * | ump_record_unverifiable | a UMP record no longer verifies as read back (detail: record ids) |
 */
import { verifyAuditChain } from "../audit/verify-audit.ts";
import { approvedSupersedesEdges, PER_DATABASE, storeInvariants } from "../store/consistency.ts";
import type { Db } from "../store/db.ts";
import { dbsOf } from "../store/domain-dbs.ts";
import { crossDbDanglingLinks, crossDbPromotedMissing, liveSoftTombstones } from "./cross-db-checks.ts";
import { storedTextNul, umpRecordUnverifiable } from "./stored-text-checks.ts";

/** One check's outcome. */
export interface ConsistencyCheck {
  name: string;
  ok: boolean;
  count: number;
  sample?: number[];
  detail?: string;
}

/** The first cycle in a directed edge list, as the ids on it, or undefined. */
export function findCycle(edges: readonly [number, number][]): number[] | undefined {
  const next = new Map<number, number[]>();
  for (const [a, b] of edges) next.set(a, [...(next.get(a) ?? []), b]);
  const state = new Map<number, 1 | 2>();
  const stack: number[] = [];
  const visit = (n: number): number[] | undefined => {
    state.set(n, 1);
    stack.push(n);
    for (const m of next.get(n) ?? []) {
      if (state.get(m) === 1) return stack.slice(stack.indexOf(m));
      if (!state.has(m)) {
        const c = visit(m);
        if (c) return c;
      }
    }
    stack.pop();
    state.set(n, 2);
    return undefined;
  };
  for (const n of [...next.keys()].sort((a, b) => a - b)) {
    if (state.has(n)) continue;
    const c = visit(n);
    if (c) return c;
  }
  return undefined;
}

/** Runs every check; in multi-database mode over every database (docs/scale-out.md "One database per domain"). */
export async function checkConsistency(db: Db): Promise<{ ok: boolean; checks: ConsistencyCheck[] }> {
  const checks: ConsistencyCheck[] = [];
  const ex = db.client;
  const chain = await verifyAuditChain(ex);
  checks.push(chain.ok
    ? { name: "audit_chain", ok: true, count: 0, detail: `${chain.rows} rows verified` }
    : { name: "audit_chain", ok: false, count: 1, sample: [chain.first_broken!.id], detail: `first broken row ${chain.first_broken!.id}: ${chain.first_broken!.reason}` });
  const inv = await storeInvariants(ex);
  if (db.router !== undefined) {
    // Vectors, owned relations and tombstones sit beside their chunks, so those checks add up per database; links
    // and approvals are global rows naming chunks that may be in any database.
    for (const other of dbsOf(db).slice(1)) {
      const more = await storeInvariants(other.client);
      for (const name of PER_DATABASE) inv[name] = { count: inv[name].count + more[name].count, sample: [...inv[name].sample, ...more[name].sample].slice(0, 10) };
    }
    inv.dangling_links = await crossDbDanglingLinks(db);
    inv.promoted_missing = await crossDbPromotedMissing(db);
  }
  const soft = await liveSoftTombstones(db);
  inv.tombstoned_present = {
    count: inv.tombstoned_present.count + soft.count,
    sample: [...new Set([...inv.tombstoned_present.sample, ...soft.sample])].sort((a, b) => a - b).slice(0, 10),
  };
  for (const name of ["orphan_vectors", "dangling_relation_owners", "dangling_links"]) {
    checks.push({ name, ok: inv[name].count === 0, count: inv[name].count, ...(inv[name].count ? { sample: inv[name].sample } : {}) });
  }
  const cycle = findCycle(await approvedSupersedesEdges(ex));
  checks.push(cycle ? { name: "supersede_cycle", ok: false, count: cycle.length, sample: cycle } : { name: "supersede_cycle", ok: true, count: 0 });
  for (const name of ["promoted_missing", "proposal_state", "tombstoned_present"]) {
    checks.push({ name, ok: inv[name].count === 0, count: inv[name].count, ...(inv[name].count ? { sample: inv[name].sample } : {}) });
  }
  checks.push(await storedTextNul(db), await umpRecordUnverifiable(db));
  return { ok: checks.every((c) => c.ok), checks };
}
