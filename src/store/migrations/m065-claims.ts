/**
 * Migration 65: the claims loop (SPEC §2.12 "claim schemas, claims, claim
 * evidence", §4.11; issue 17). A claim schema is a JSON Schema kept
 * verbatim with its SHA-256; a claim is a JSON value filed against one
 * schema with chunk ids as evidence; each verify records its outcome on the
 * claim. Chunk ids are plain integers (as in migration 8), so an erased
 * chunk never blocks a delete and the claim keeps the id it was filed with.
 */
import type { Migration } from "./migration.ts";

/** Claim schemas, claims and claim evidence. */
export const m065Claims: Migration = {
  version: 65,
  stamp: "1.32.90",
  statements: [
    `CREATE TABLE IF NOT EXISTS claim_schemas (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       name TEXT NOT NULL UNIQUE,
       schema_json TEXT NOT NULL,
       schema_sha256 TEXT NOT NULL,
       created_at TEXT NOT NULL
     )`,
    `CREATE TABLE IF NOT EXISTS claims (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       schema_id INTEGER NOT NULL,
       claim_json TEXT NOT NULL,
       claim_sha256 TEXT NOT NULL,
       run_id INTEGER,
       status TEXT NOT NULL CHECK (status IN ('filed', 'verified', 'failed')),
       reasons_json TEXT,
       created_at TEXT NOT NULL,
       verified_at TEXT
     )`,
    `CREATE INDEX IF NOT EXISTS claims_schema ON claims(schema_id, id)`,
    `CREATE INDEX IF NOT EXISTS claims_status ON claims(status, id)`,
    `CREATE TABLE IF NOT EXISTS claim_evidence (
       claim_id INTEGER NOT NULL,
       position INTEGER NOT NULL,
       chunk_id INTEGER NOT NULL,
       content_hash TEXT,
       PRIMARY KEY (claim_id, position)
     )`,
    `CREATE INDEX IF NOT EXISTS claim_evidence_chunk ON claim_evidence(chunk_id)`,
  ],
};
