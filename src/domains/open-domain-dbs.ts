/**
 * Multi-database mode at boot (issue 20, SPEC §2.5, docs/scale-out.md "One database per domain"): opens one libSQL file per
 * registered domain beside the global database (the runtime places the files), each migrated like the global one
 * and with the embedder's vector table, and sets the router on the global handle.
 */
import { MemoryError } from "../core/errors.ts";
import type { Db } from "../store/db.ts";
import { DomainDbs } from "../store/domain-dbs.ts";
import { openStore } from "../store/open-store.ts";
import { ensureVectorTable } from "../store/vectors.ts";

/** Where the runtime keeps domain database files (src/runtime/domain-files.ts). */
export interface DomainPlaces {
  pathOf(domain: string): Promise<string>;
  remove(domain: string): Promise<boolean>;
}

/** Opens every domain database; `allowUnmoved` is for `cairn migrate multi-db`, which moves the rows itself. */
export async function openDomainDbs(
  db: Db, places: DomainPlaces | undefined,
  o: { durability?: "full" | "normal"; vectors?: { id: string; dim: number }; allowUnmoved?: boolean },
): Promise<DomainDbs> {
  if (places === undefined) throw new MemoryError("boot_refused", "CAIRN_MULTI_DB=true needs a runtime that places domain database files");
  return await DomainDbs.open(db, {
    async open(domain) {
      const d = await openStore({ path: await places.pathOf(domain), durability: o.durability });
      if (o.vectors !== undefined) await ensureVectorTable(d.client, o.vectors.id, o.vectors.dim);
      return d;
    },
    async remove(domain) {
      await places.remove(domain);
    },
  }, { allowUnmoved: o.allowUnmoved });
}
