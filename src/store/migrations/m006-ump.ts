/**
 * Migration 6: UMP records and the file binding (SPEC §2.8, §4.2, §4.9,
 * §5 item 6). A UMP record is a view over one chunk plus the metadata kept
 * here: `ump_records` maps the content-addressed `urn:ump:` id to its chunk
 * (several versions or scopes may share one chunk, since chunk content is
 * unique), with the columns recall filters on and the full record JSON
 * minus `body.text` (the text lives once, in the chunk). Feedback, revoked
 * capability-token ids and the vault file sources live beside it. The
 * tables reference no other feature's tables, so merge order never matters.
 */
import type { Migration } from "./migration.ts";

/** UMP tables. */
export const m006Ump: Migration = {
  version: 6,
  stamp: "1.32.31",
  statements: [
    `CREATE TABLE IF NOT EXISTS ump_records (
       seq INTEGER PRIMARY KEY AUTOINCREMENT,
       id TEXT NOT NULL UNIQUE,
       chunk_id INTEGER NOT NULL,
       kind TEXT NOT NULL,
       owner TEXT NOT NULL,
       project TEXT,
       agent TEXT,
       visibility TEXT NOT NULL,
       status TEXT NOT NULL,
       valid_from TEXT NOT NULL,
       valid_to TEXT,
       expires_at TEXT,
       exportable INTEGER NOT NULL DEFAULT 1,
       record TEXT NOT NULL,
       followed INTEGER NOT NULL DEFAULT 0,
       overridden INTEGER NOT NULL DEFAULT 0,
       ignored INTEGER NOT NULL DEFAULT 0,
       contradicted INTEGER NOT NULL DEFAULT 0,
       created_at TEXT NOT NULL,
       updated_at TEXT NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS ump_records_chunk ON ump_records(chunk_id)`,
    `CREATE INDEX IF NOT EXISTS ump_records_expiry ON ump_records(expires_at) WHERE expires_at IS NOT NULL`,
    `CREATE TABLE IF NOT EXISTS ump_feedback (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       record_id TEXT NOT NULL,
       outcome TEXT NOT NULL,
       session TEXT,
       actor TEXT,
       at TEXT NOT NULL
     )`,
    `CREATE INDEX IF NOT EXISTS ump_feedback_record ON ump_feedback(record_id)`,
    `CREATE TABLE IF NOT EXISTS ump_revoked (
       jti TEXT PRIMARY KEY,
       revoked_at TEXT NOT NULL
     )`,
    `CREATE TABLE IF NOT EXISTS file_sources (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       kind TEXT NOT NULL,
       root TEXT NOT NULL,
       path TEXT NOT NULL,
       hash TEXT NOT NULL,
       state TEXT NOT NULL,
       record_id TEXT,
       updated_at TEXT NOT NULL,
       UNIQUE(kind, root, path)
     )`,
    `CREATE TABLE IF NOT EXISTS file_source_chunks (
       source_id INTEGER NOT NULL,
       chunk_id INTEGER NOT NULL,
       stale INTEGER NOT NULL DEFAULT 0,
       PRIMARY KEY (source_id, chunk_id)
     )`,
    `CREATE INDEX IF NOT EXISTS file_source_chunks_chunk ON file_source_chunks(chunk_id)`,
  ],
};
