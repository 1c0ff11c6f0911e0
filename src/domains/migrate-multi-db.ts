/**
 * `cairn migrate multi-db` (issue 20, SPEC §2.5, docs/scale-out.md "One database per domain"): moves each registered domain's rows
 * out of a single-file store into the domain's own database, keeping every id, one audited step per domain.
 *
 * One step, per domain still holding rows in the single file:
 * 1. the domain gets its shard and database (`DomainDbs.ensure`, its own committed write);
 * 2. its rows are copied into the domain database in one transaction there (rows already there under the same keys,
 *    left by an interrupted step, are replaced), and committed;
 * 3. the copy is counted against the single file, then one global transaction deletes the rows there and appends
 *    the audit row (`domain_migrated`, naming the domain and the rows per table).
 * A crash before 3 commits leaves the rows in both files; the global copy still counts, so the rerun redoes the
 * step. After 3 the domain holds no rows in the single file and a rerun skips it. Nothing is deleted before its copy
 * has committed elsewhere.
 */
import type { AuditService } from "../audit/audit-service.ts";
import { checkConsistency, type ConsistencyCheck } from "../consistency/check-consistency.ts";
import { MemoryError } from "../core/errors.ts";
import type { Db } from "../store/db.ts";
import type { DomainDbs } from "../store/domain-dbs.ts";
import { domainExists } from "../store/domains.ts";
import { copyDomainRows, countDomainRows, deleteDomainRows, domainsWithRows, type MoveCounts } from "../store/move-domain.ts";

/** One domain's step. */
export interface MigrationStep {
  domain: string;
  rows: MoveCounts;
}

/** What a run did. */
export interface MigrationReport {
  dry_run: boolean;
  /** Domains moved by this run (or, dry run, that would be). */
  moved: MigrationStep[];
  /** Domains left in the single file (a run limited to one domain). */
  remaining: string[];
  ms: number;
  /** The `check-consistency` verdict over every database after the run (absent on a dry run). */
  consistency?: { ok: boolean; checks: ConsistencyCheck[] };
}

/** The migration service. */
export interface MultiDbMigration {
  /**
   * Moves every domain (or only `domain`). `afterCopy` runs between a domain's copy commit and its global commit
   * (tests stop there to leave a half-moved domain, as a kill would).
   */
  run(o?: { domain?: string; dryRun?: boolean; afterCopy?: (domain: string) => Promise<void> }): Promise<MigrationReport>;
  close(): Promise<void>;
}

/** Builds the service over the global database and its router (opened with `allowUnmoved`). */
export function createMultiDbMigration(d: { db: Db; dbs: DomainDbs; audit: AuditService; now: () => number }): MultiDbMigration {
  const { db, dbs, audit } = d;
  const step = async (domain: string, afterCopy?: (domain: string) => Promise<void>): Promise<MigrationStep> => {
    const target = await dbs.ensure(domain);
    const copied = await target.write((tx) => copyDomainRows(db.client, tx, domain));
    await dbs.noteMoved(domain);
    await afterCopy?.(domain);
    const rows = await db.write(async (tx) => {
      // Counted again inside the global transaction: nothing can have been added since (the store is offline), and a
      // count that differs from the copy's means the copy is not the whole domain: nothing is deleted then.
      const here = await countDomainRows(tx, domain);
      if (JSON.stringify(here) !== JSON.stringify(copied)) {
        throw new MemoryError("conflict", `domain '${domain}' changed during its move; run the migration again`, { copied, here });
      }
      await deleteDomainRows(tx, domain);
      await audit.append(tx, { action: "domain_migrated", target: `domain:${domain}`, detail: { domain, rows: here, to: "domain_database" } });
      return here;
    });
    return { domain, rows };
  };
  return {
    async run(o = {}) {
      const t0 = d.now();
      const pending = await domainsWithRows(db.client);
      if (o.domain !== undefined && !pending.includes(o.domain)) {
        if (!(await domainExists(db.client, o.domain))) throw new MemoryError("not_found", `domain '${o.domain}' not found`);
      }
      const chosen = o.domain === undefined ? pending : pending.filter((n) => n === o.domain);
      const moved: MigrationStep[] = [];
      for (const domain of chosen) {
        moved.push(o.dryRun ? { domain, rows: await countDomainRows(db.client, domain) } : await step(domain, o.afterCopy));
      }
      const remaining = o.dryRun ? pending.filter((n) => !chosen.includes(n)) : await domainsWithRows(db.client);
      const consistency = o.dryRun ? undefined : await checkConsistency(db);
      return { dry_run: Boolean(o.dryRun), moved, remaining, ms: d.now() - t0, ...(consistency ? { consistency } : {}) };
    },
    async close() {
      await dbs.close();
      await db.checkpoint().catch(() => undefined);
      db.close();
    },
  };
}

