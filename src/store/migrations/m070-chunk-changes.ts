/**
 * Migration 70 (issue 20): the chunk change sequence. Every insert, update
 * and delete of a chunk row appends one row here from a trigger, so the
 * change commits in the same transaction as the write whatever door made
 * it (ingest, review approval, quarantine release, delete, purge, erasure,
 * domain drop, snapshot import, another process on the same file, another
 * node on the same libSQL server). Each process tails the sequence to keep
 * its in-memory indexes in step (src/changefeed/README.md). SQLite has one
 * writer at a time, so sequence numbers become visible in commit order and
 * a tail never skips a row that commits later with a smaller number.
 * The rows carry ids only, never text, so an erased chunk leaves nothing here.
 */
import type { Migration } from "./migration.ts";

/** `chunk_changes` and its three triggers. */
export const m070ChunkChanges: Migration = {
  version: 70,
  stamp: "1.32.95",
  statements: [
    `CREATE TABLE IF NOT EXISTS chunk_changes (
       seq INTEGER PRIMARY KEY AUTOINCREMENT,
       chunk_id INTEGER NOT NULL,
       op TEXT NOT NULL CHECK (op IN ('I', 'U', 'D')),
       at_ms INTEGER NOT NULL
     )`,
    `CREATE TRIGGER IF NOT EXISTS chunk_changes_insert AFTER INSERT ON chunks BEGIN
       INSERT INTO chunk_changes (chunk_id, op, at_ms) VALUES (NEW.id, 'I', CAST(unixepoch('subsec') * 1000 AS INTEGER));
     END`,
    `CREATE TRIGGER IF NOT EXISTS chunk_changes_update AFTER UPDATE ON chunks BEGIN
       INSERT INTO chunk_changes (chunk_id, op, at_ms) VALUES (NEW.id, 'U', CAST(unixepoch('subsec') * 1000 AS INTEGER));
     END`,
    `CREATE TRIGGER IF NOT EXISTS chunk_changes_delete AFTER DELETE ON chunks BEGIN
       INSERT INTO chunk_changes (chunk_id, op, at_ms) VALUES (OLD.id, 'D', CAST(unixepoch('subsec') * 1000 AS INTEGER));
     END`,
  ],
};
