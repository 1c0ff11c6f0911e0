import { createAuditService } from "../audit/audit-service.ts";
import type { Config } from "../config/config.ts";
import { MemoryError } from "../core/errors.ts";
import type { MemoryPorts } from "../memory-types.ts";
import { describeShutdown } from "../ops/shutdown-report.ts";
import { storedVectorSpec } from "../store/move-domain.ts";
import { openStore } from "../store/open-store.ts";
import { readShutdownStamp } from "../store/shutdown-stamp.ts";
import { createMultiDbMigration, type MultiDbMigration } from "./migrate-multi-db.ts";
import { openDomainDbs } from "./open-domain-dbs.ts";

/**
 * `cairn migrate multi-db` (issue 20, docs/scale-out.md "One database per domain"): the global database with every domain database
 * open (domains still in the single file allowed), for the move. Refused while a server runs on the store (its
 * shutdown stamp names a live process) and on a libSQL server (no domain databases there).
 */
export async function openMultiDbMigration(config: Config, ports: Pick<MemoryPorts, "domainFiles" | "pidAlive" | "clock">): Promise<MultiDbMigration> {
  if (config.dbUrl !== undefined) throw new MemoryError("multi_db_unsupported", "multi-database mode needs the embedded database file, not CAIRN_DB_URL", undefined, 409);
  const db = await openStore({ path: config.dbPath, durability: config.durability });
  try {
    const report = describeShutdown(await readShutdownStamp(db.client), (p) => ports.pidAlive?.(p) ?? false);
    if (report.server_running) throw new MemoryError("conflict", `a server (pid ${report.pid}) is serving this store: stop it before the migration`);
    const dbs = await openDomainDbs(db, ports.domainFiles, { durability: config.durability, vectors: await storedVectorSpec(db.client), allowUnmoved: true });
    const clock = ports.clock ?? (() => new Date());
    return createMultiDbMigration({ db, dbs, audit: createAuditService(db, clock), now: () => clock().getTime() });
  } catch (e) {
    db.close();
    throw e;
  }
}
