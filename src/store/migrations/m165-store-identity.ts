/**
 * Migration 165 (issue 20): a random identity for the store, drawn once when the schema is created. A node keeps a
 * cache of its indexes in its own data directory (docs/scale-out.md "Several nodes over one libSQL server": boot cache) keyed by
 * this identity and the change sequence it covers; a cache written against another server or database is refused.
 */
import type { Migration } from "./migration.ts";

/** The table and its one row. */
export const m165StoreIdentity: Migration = {
  version: 165,
  stamp: "1.32.165",
  statements: [
    `CREATE TABLE IF NOT EXISTS store_identity (id INTEGER PRIMARY KEY CHECK (id = 1), store_id TEXT NOT NULL, created_at TEXT NOT NULL)`,
    `INSERT OR IGNORE INTO store_identity (id, store_id, created_at) VALUES (1, lower(hex(randomblob(16))), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
  ],
};
