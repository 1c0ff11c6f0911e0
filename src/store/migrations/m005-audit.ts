/**
 * Migration 5: the append-only, SHA-256 hash-chained audit log (SPEC §1
 * item 5, §2.12). Rows are never updated or deleted by the service; two
 * triggers make that a database-level rule too.
 */
import type { Migration } from "./migration.ts";

/** Audit log table. */
export const m005Audit: Migration = {
  version: 5,
  stamp: "1.32.30",
  statements: [
    `CREATE TABLE IF NOT EXISTS audit_log (
       id INTEGER PRIMARY KEY,
       ts TEXT NOT NULL,
       action TEXT NOT NULL,
       actor TEXT,
       target TEXT,
       detail TEXT NOT NULL,
       prev_hash TEXT NOT NULL,
       hash TEXT NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS audit_log_action ON audit_log(action)`,
    `CREATE TRIGGER IF NOT EXISTS audit_log_no_update BEFORE UPDATE ON audit_log
       BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`,
    `CREATE TRIGGER IF NOT EXISTS audit_log_no_delete BEFORE DELETE ON audit_log
       BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END`,
  ],
};
