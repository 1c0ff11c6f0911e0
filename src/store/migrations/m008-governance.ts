/**
 * Migration 8: governance tables (SPEC §2.7 proposals, §3 consolidation
 * links, §1 item 6 erasure certificates). Independent of every other
 * feature's tables: chunk ids are plain integers, not foreign keys, so an
 * erased chunk never blocks a delete here and vice versa.
 */
import type { Migration } from "./migration.ts";

/** Proposals, consolidation links and erasure certificates. */
export const m008Governance: Migration = {
  version: 8,
  stamp: "1.32.33",
  statements: [
    `CREATE TABLE IF NOT EXISTS proposals (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
       kind TEXT NOT NULL CHECK (kind IN ('memory', 'capture')),
       door TEXT NOT NULL,
       title TEXT,
       content TEXT NOT NULL,
       content_hash TEXT NOT NULL,
       domain TEXT NOT NULL,
       ingest_kind TEXT NOT NULL,
       origin TEXT,
       owner TEXT,
       source TEXT,
       source_prompt TEXT,
       score REAL NOT NULL,
       score_breakdown TEXT NOT NULL,
       screen TEXT NOT NULL,
       created_at TEXT NOT NULL,
       decided_at TEXT,
       promoted_chunk_id INTEGER,
       supersedes_chunk_id INTEGER
     )`,
    `CREATE INDEX IF NOT EXISTS proposals_status ON proposals(status, id)`,
    `CREATE INDEX IF NOT EXISTS proposals_hash ON proposals(content_hash)`,
    `CREATE INDEX IF NOT EXISTS proposals_promoted ON proposals(promoted_chunk_id)`,
    `CREATE INDEX IF NOT EXISTS proposals_owner ON proposals(owner)`,
    `CREATE TABLE IF NOT EXISTS consolidation_links (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       kind TEXT NOT NULL CHECK (kind IN ('supersedes', 'contradicts')),
       from_chunk_id INTEGER NOT NULL,
       to_chunk_id INTEGER NOT NULL,
       status TEXT NOT NULL CHECK (status IN ('proposed', 'approved', 'undone', 'dismissed')),
       basis TEXT NOT NULL,
       created_at TEXT NOT NULL,
       approved_at TEXT,
       closed_at TEXT,
       CHECK (from_chunk_id <> to_chunk_id)
     )`,
    `CREATE INDEX IF NOT EXISTS consolidation_links_from ON consolidation_links(from_chunk_id)`,
    `CREATE INDEX IF NOT EXISTS consolidation_links_to ON consolidation_links(to_chunk_id)`,
    `CREATE TABLE IF NOT EXISTS erasure_certificates (
       id TEXT PRIMARY KEY,
       issued_at TEXT NOT NULL,
       audit_row_id INTEGER NOT NULL,
       digest TEXT NOT NULL,
       body TEXT NOT NULL
     )`,
  ],
};
