/**
 * Migration 172: claim batches (SPEC §2.12 names them beside claim schemas, claims and claim evidence; their fields
 * are not shown, so the shape is this project's choice). A batch is a named, ordered set of existing claims verified
 * together, with its own status. It holds claim ids and a slug-like name only: no subject text.
 */
import type { Migration } from "./migration.ts";

/** Claim batches and their members. */
export const m172ClaimBatches: Migration = {
  version: 172,
  stamp: "1.32.172",
  statements: [
    `CREATE TABLE IF NOT EXISTS claim_batches (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       name TEXT,
       status TEXT NOT NULL CHECK (status IN ('filed', 'verified', 'failed')),
       created_at TEXT NOT NULL,
       verified_at TEXT
     )`,
    `CREATE TABLE IF NOT EXISTS claim_batch_members (
       batch_id INTEGER NOT NULL,
       position INTEGER NOT NULL,
       claim_id INTEGER NOT NULL,
       PRIMARY KEY (batch_id, position)
     )`,
    `CREATE INDEX IF NOT EXISTS claim_batch_members_claim ON claim_batch_members(claim_id)`,
  ],
};
