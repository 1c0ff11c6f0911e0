/**
 * Migration 100 (issue 20, multi-database mode): each registered domain gets a shard ordinal. The ordinal names the
 * id range its database allocates chunk, entity and relation ids from (`ordinal × 2^40`, src/store/domain-dbs.ts),
 * so ids stay unique across databases and the database holding an id is known from the id alone. `global` is 0 and
 * stays in the global database; NULL means "not yet given a database" (single-database mode).
 */
import type { Migration } from "./migration.ts";

/** The `shard` column of the domain registry. */
export const m100DomainShards: Migration = {
  version: 100,
  stamp: "1.32.100",
  statements: [
    `ALTER TABLE domains ADD COLUMN shard INTEGER`,
    `CREATE UNIQUE INDEX IF NOT EXISTS domains_shard ON domains(shard) WHERE shard IS NOT NULL`,
    `UPDATE domains SET shard = 0 WHERE name = 'global'`,
  ],
};
