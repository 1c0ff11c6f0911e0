/**
 * Migration 1: the foundation schema (SPEC §2.1 chunks, §2.5 domains,
 * §2.6 entities and bi-temporal edges, §2.12 tombstones).
 */
import type { Migration } from "./migration.ts";

/** Foundation tables. */
export const m001Foundation: Migration = {
  version: 1,
  stamp: "1.32.26",
  statements: [
    `CREATE TABLE IF NOT EXISTS domains (
       name TEXT PRIMARY KEY,
       created_at TEXT NOT NULL
     )`,
    `CREATE TABLE IF NOT EXISTS chunks (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       title TEXT,
       content TEXT NOT NULL,
       domain TEXT NOT NULL,
       content_hash TEXT NOT NULL,
       source TEXT NOT NULL,
       origin TEXT,
       origin_source TEXT,
       memory_kind TEXT,
       lawful_basis TEXT,
       region TEXT,
       confidence REAL NOT NULL DEFAULT 1,
       assertion_kind TEXT,
       expires_at TEXT,
       flagged INTEGER NOT NULL DEFAULT 0,
       authority REAL,
       meta TEXT,
       created_at TEXT NOT NULL
     )`,
    `CREATE UNIQUE INDEX IF NOT EXISTS chunks_content_hash ON chunks(content_hash)`,
    `CREATE INDEX IF NOT EXISTS chunks_domain ON chunks(domain)`,
    `CREATE TABLE IF NOT EXISTS entities (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       domain TEXT NOT NULL,
       name TEXT NOT NULL,
       display_name TEXT NOT NULL,
       type TEXT,
       created_at TEXT NOT NULL,
       UNIQUE(domain, name)
     )`,
    `CREATE TABLE IF NOT EXISTS relations (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       domain TEXT NOT NULL,
       from_id INTEGER NOT NULL REFERENCES entities(id),
       to_id INTEGER NOT NULL REFERENCES entities(id),
       type TEXT NOT NULL,
       valid_at TEXT,
       invalid_at TEXT,
       created_at TEXT NOT NULL,
       superseded_at TEXT,
       edge_source TEXT NOT NULL DEFAULT 'structured',
       chunk_id INTEGER
     )`,
    `CREATE INDEX IF NOT EXISTS relations_triple ON relations(from_id, type, to_id)`,
    `CREATE INDEX IF NOT EXISTS relations_to ON relations(to_id)`,
    `CREATE INDEX IF NOT EXISTS relations_chunk ON relations(chunk_id)`,
    `CREATE TABLE IF NOT EXISTS tombstones (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       chunk_id INTEGER NOT NULL,
       domain TEXT NOT NULL,
       content_hash TEXT NOT NULL,
       reason TEXT NOT NULL,
       deleted_at TEXT NOT NULL
     )`,
    // SPEC §2.5: the reserved `global` domain always exists.
    `INSERT OR IGNORE INTO domains (name, created_at) VALUES ('global', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))`,
    `CREATE TABLE IF NOT EXISTS store_meta (
       key TEXT PRIMARY KEY,
       value TEXT NOT NULL
     )`,
  ],
};
