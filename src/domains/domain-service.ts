/**
 * Domain operations (SPEC §2.5, §4.5): list with counts, create-or-warm,
 * drop with exact-name confirmation (`global` protected), vacuum.
 */
import { MemoryError } from "../core/errors.ts";
import type { Db } from "../store/db.ts";
import { chunkIdsInDomain } from "../store/chunks.ts";
import { dbOfDomain, writeIn } from "../store/domain-dbs.ts";
import { domainCounts, domainExists, dropDomainRows, insertDomain, listDomainNames, listDomainsWithCounts, vacuum } from "../store/domains.ts";
import { graphTotals } from "../store/graph-rows.ts";
import { eraseInTx } from "../erasure/erase-in-tx.ts";
import type { TxHook } from "../ingest/ports.ts";
import { GLOBAL_DOMAIN, normalizeDomainName } from "./domain-name.ts";

/** One domain listing entry (SPEC §2.5). */
export interface DomainEntry {
  name: string;
  entries: number;
  entities: number;
  relations: number;
  multi_db: boolean;
}

/** Domain service over the store. */
export interface DomainService {
  list(): Promise<DomainEntry[]>;
  create(name: unknown): Promise<{ created: boolean; domain: DomainEntry }>;
  drop(name: unknown, confirm: unknown): Promise<{ deleted: true; name: string; entries_removed: number }>;
  vacuum(name: unknown): Promise<{ name: string; vacuumed: true }>;
  exists(name: string): Promise<boolean>;
}

/** Multi-database mode (docs/scale-out.md "One database per domain"): gives a domain its database, deletes it. */
export interface DomainDatabases {
  ensure(name: string): Promise<unknown>;
  remove(name: string): Promise<void>;
  /** Opens the databases of domains another process registered since boot. */
  refresh(): Promise<unknown>;
}

/** Builds the domain service; `onDropped` lets indexes forget dropped chunk ids. */
export function createDomainService(
  db: Db, clock: () => Date, onDropped: (ids: number[]) => void, txHooks: readonly TxHook[] = [], multi?: DomainDatabases,
): DomainService {
  const list = async (): Promise<DomainEntry[]> => {
    if (multi !== undefined) {
      // SPEC §2.5: in multi-database mode the counts are per domain, each read from the domain's own database.
      const out: DomainEntry[] = [];
      await multi.refresh();
      for (const name of await listDomainNames(db.client)) out.push({ name, ...(await domainCounts(dbOfDomain(db, name).client, name)), multi_db: true });
      return out;
    }
    const rows = await listDomainsWithCounts(db.client);
    const totals = await graphTotals(db.client);
    // SPEC §2.5: with multi_db=false, entity and relation counts are global totals.
    return rows.map((r) => ({ name: r.name, entries: r.entries, entities: totals.entities, relations: totals.relations, multi_db: false }));
  };
  const exists = async (name: string) => name === GLOBAL_DOMAIN || (await domainExists(db.client, name));
  return {
    list,
    exists,
    async create(raw) {
      const name = normalizeDomainName(raw, "name");
      const created = await db.write((tx) => insertDomain(tx, name, clock().toISOString()));
      // Multi-database mode: the domain's database file exists from its creation on (also when warming).
      if (multi !== undefined && name !== GLOBAL_DOMAIN) await multi.ensure(name);
      const domain = (await list()).find((d) => d.name === name)!;
      return { created, domain };
    },
    async drop(raw, confirm) {
      const name = normalizeDomainName(raw, "name");
      if (name === GLOBAL_DOMAIN) throw new MemoryError("domain_protected", "the global domain cannot be dropped", undefined, 400);
      if (!(await domainExists(db.client, name))) throw new MemoryError("not_found", `domain '${name}' not found`);
      // SPEC §2.5: names are trimmed and lowercased before comparison, so `DELETE /domains/Work?confirm=Work` matches;
      // any other spelling (a prefix, another name) is refused.
      if (typeof confirm !== "string" || confirm.trim().toLowerCase() !== name) {
        throw new MemoryError("confirm_required", "confirm must repeat the domain name", { field: "confirm" }, 400);
      }
      const { ids, removed } = await writeIn(db, name, async (tx) => {
        // Read inside the transaction, so a concurrent write cannot slip a chunk past the drop.
        const ids = await chunkIdsInDomain(tx, name);
        // SPEC §1 item 6: the drop deletes deliberately, like a purge: tombstones, vectors, promoted proposals,
        // consolidation links, UMP record rows and vault file links of each chunk go in the same transaction.
        const erased = await eraseInTx(tx, { chunkIds: ids, reason: "domain_drop", now: clock().toISOString() });
        await dropDomainRows(tx, name);
        const n = erased.chunkIds.length;
        // The drop is a governed deletion: its audit row commits with it (SPEC §1 item 5).
        for (const h of txHooks) await h(tx, { action: "domain_drop", detail: { domain: name, entries_removed: n } });
        return { ids, removed: n };
      });
      onDropped(ids);
      // Multi-database mode: the domain's database goes entirely (its rows were purged above, in its own transaction).
      if (multi !== undefined) await multi.remove(name);
      await vacuum(db.client);
      return { deleted: true, name, entries_removed: removed };
    },
    async vacuum(raw) {
      const name = normalizeDomainName(raw, "name");
      if (!(await exists(name))) throw new MemoryError("not_found", `domain '${name}' not found`);
      // SPEC §4.5: vacuum reclaims the domain's own database's pages in multi-database mode.
      await vacuum(dbOfDomain(db, name).client);
      return { name, vacuumed: true };
    },
  };
}
