/**
 * Migration 4: the knowledge graph's recall support (SPEC §1 step 6, §2.6).
 * `entity_chunks` links an entity to the chunks that mention it or produced
 * its edges (`subject` = 1 when the chunk is about the entity: the note it
 * titles, a section it heads, an entity a structured ingest declares), so
 * Personalized PageRank scores over entities can be mapped back to chunks. Triggers drop those links when a chunk or an entity is
 * deleted by any path (delete, purge, erasure, domain drop), so this table
 * never needs the other features' code to stay clean. Indexes serve the
 * graph routes (SPEC §4.6): edges by endpoint and by domain.
 */
import type { Migration } from "./migration.ts";

/** Graph support tables and indexes. */
export const m004Graph: Migration = {
  version: 4,
  stamp: "1.32.29",
  statements: [
    `CREATE TABLE IF NOT EXISTS entity_chunks (
       entity_id INTEGER NOT NULL,
       chunk_id INTEGER NOT NULL,
       subject INTEGER NOT NULL DEFAULT 0,
       PRIMARY KEY (entity_id, chunk_id)
     ) WITHOUT ROWID`,
    `CREATE INDEX IF NOT EXISTS entity_chunks_chunk ON entity_chunks(chunk_id)`,
    `CREATE TRIGGER IF NOT EXISTS entity_chunks_chunk_gone AFTER DELETE ON chunks
       BEGIN DELETE FROM entity_chunks WHERE chunk_id = OLD.id; END`,
    `CREATE TRIGGER IF NOT EXISTS entity_chunks_entity_gone AFTER DELETE ON entities
       BEGIN DELETE FROM entity_chunks WHERE entity_id = OLD.id; END`,
    `CREATE INDEX IF NOT EXISTS relations_from ON relations(from_id)`,
    `CREATE INDEX IF NOT EXISTS relations_domain ON relations(domain)`,
  ],
};
