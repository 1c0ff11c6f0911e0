/**
 * Migration 20: signed parcels (SPEC §2.10, §3 "imported parcel rows",
 * §4.10). `parcel_ledger` holds one row per import or export (direction,
 * parcel hash, signer, row count, reviewer, timestamp); `proposals.carried`
 * keeps what an imported row brought beside its text (its labels and the
 * graph edges it asserts), so approving it promotes the row whole.
 */
import type { Migration } from "./migration.ts";

/** Parcel ledger and the carried column of imported proposals. */
export const m020Parcels: Migration = {
  version: 20,
  stamp: "1.32.45",
  statements: [
    `CREATE TABLE IF NOT EXISTS parcel_ledger (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       direction TEXT NOT NULL CHECK (direction IN ('in', 'out')),
       parcel_hash TEXT NOT NULL,
       signer TEXT NOT NULL,
       domain TEXT NOT NULL,
       source_domain TEXT NOT NULL,
       row_count INTEGER NOT NULL,
       reviewer TEXT NOT NULL,
       counts TEXT NOT NULL,
       created_at TEXT NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS parcel_ledger_domain ON parcel_ledger(domain, id)`,
    `ALTER TABLE proposals ADD COLUMN carried TEXT`,
  ],
};
