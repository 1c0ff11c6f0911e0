/** What the parcel and snapshot operations need from the composition root. */
import type { AuditService } from "../audit/audit-service.ts";
import type { WriteContext } from "../ingest/context.ts";
import type { Db } from "../store/db.ts";
import type { ExpansionLimits } from "./snapshot-format.ts";

/** Dependencies of the parcel service. */
export interface ParcelDeps {
  db: Db;
  ctx: WriteContext;
  audit: AuditService;
  clock: () => Date;
  /** The operator seed, re-read on every call (SPEC §5 item 5); undefined without a key. */
  keys: () => Uint8Array | undefined;
  /** `did:key` of a seed (cached). */
  didOf: (seed: Uint8Array) => string;
  /** Multi-database mode: gives a registered domain its database file, and deletes it (docs/scale-out.md). */
  domainDbs?: { ensure(name: string): Promise<unknown>; remove(name: string): Promise<void> };
  /** Bounds of a snapshot import once gunzipped (docs/limits.md "Snapshot import"). */
  snapshotLimits: ExpansionLimits;
}
