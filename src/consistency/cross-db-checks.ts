/**
 * The two `check-consistency` invariants whose rows span databases in multi-database mode (issue 20,
 * docs/scale-out.md "One database per domain"): consolidation links and approvals live in the global database and name chunks that may
 * be in any domain's database. Their ids are paged from the global database and looked up where the router says
 * each id can be (`groupIds`), so the check reads each id once per candidate database, never a whole table twice.
 * The soft-tombstone check (issue 35) runs the other way round: soft tombstones sit beside their chunks, the records
 * they retired in the global database (one database in single-database mode).
 */
import type { Db } from "../store/db.ts";
import { dbsOf, groupIds } from "../store/domain-dbs.ts";
import { liveUmpIds, type Offenders, openLinkEnds, presentChunkIds, promotedChunkIds, softTombstonesOnStored } from "../store/consistency.ts";

const PAGE = 500;
const SAMPLE = 10;

async function present(db: Db, ids: readonly number[], tombstoned: boolean): Promise<Set<number>> {
  const found = new Set<number>();
  for (const [d, part] of groupIds(db, [...new Set(ids)])) for (const id of await presentChunkIds(d.client, part, tombstoned)) found.add(id);
  return found;
}

function add(o: Offenders, id: number): void {
  o.count++;
  if (o.sample.length < SAMPLE) o.sample.push(id);
}

/** Open (proposed or approved) links with an end stored in no database (link ids). */
export async function crossDbDanglingLinks(db: Db): Promise<Offenders> {
  const out: Offenders = { count: 0, sample: [] };
  for (let after = 0; ;) {
    const page = await openLinkEnds(db.client, after, PAGE);
    if (page.length === 0) break;
    const found = await present(db, page.flatMap((l) => [l.from, l.to]), false);
    for (const l of page) if (!found.has(l.from) || !found.has(l.to)) add(out, l.id);
    after = page[page.length - 1].id;
  }
  return out;
}

/** Approvals whose promoted chunk is neither stored nor tombstoned in any database (proposal ids). */
export async function crossDbPromotedMissing(db: Db): Promise<Offenders> {
  const out: Offenders = { count: 0, sample: [] };
  for (let after = 0; ;) {
    const page = await promotedChunkIds(db.client, after, PAGE);
    if (page.length === 0) break;
    const found = await present(db, page.map((p) => p.chunk), true);
    for (const p of page) if (!found.has(p.chunk)) add(out, p.id);
    after = page[page.length - 1].id;
  }
  return out;
}

/**
 * Soft tombstones (a soft UMP forget or a retention expiry) on stored chunks whose record is still live: the forget
 * did not take (chunk ids). A soft tombstone whose record is tombstoned, or gone (a later hard forget on a shared
 * chunk), is consistent: the chunk stays for the other records on it.
 */
export async function liveSoftTombstones(db: Db): Promise<Offenders> {
  const out: Offenders = { count: 0, sample: [] };
  for (const d of dbsOf(db)) {
    for (let after = 0; ;) {
      const page = await softTombstonesOnStored(d.client, after, PAGE);
      if (page.length === 0) break;
      const live = await liveUmpIds(db.client, [...new Set(page.map((p) => p.recordId))]);
      for (const p of page) if (live.has(p.recordId)) add(out, p.chunkId);
      after = page[page.length - 1].id;
    }
  }
  return out;
}
