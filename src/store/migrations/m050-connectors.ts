/**
 * Migration 50 (issue 15): the connector registry (SPEC §2.12 connector list row `id`, `kind`, `instance`, `state`,
 * `last_sync_at`), plus what a sync needs to resume and report: the committed cursor, the last safe error message,
 * and the start of the last sync attempt (the 300 s floor, SPEC §8).
 */
import type { Migration } from "./migration.ts";

/** The `connectors` table. */
export const m050Connectors: Migration = {
  version: 50,
  stamp: "1.32.75",
  statements: [
    `CREATE TABLE IF NOT EXISTS connectors (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       kind TEXT NOT NULL,
       instance TEXT NOT NULL,
       state TEXT NOT NULL,
       last_sync_at TEXT,
       last_attempt_at TEXT,
       cursor TEXT,
       last_error TEXT,
       records_total INTEGER NOT NULL DEFAULT 0,
       registered_at TEXT NOT NULL,
       UNIQUE(kind, instance)
     )`,
  ],
};
