/**
 * Migration 40 (issue 22 item 1): a proposal filed by a UMP door under
 * `review` posture keeps the sealed record it stands for, so approval
 * stores that record under the id the door handed out (SPEC §4.9, §3), and a
 * read of that id before approval can say "pending review".
 */
import type { Migration } from "./migration.ts";

/** `ump_id` and `ump_record` on proposals. */
export const m040ReviewUmp: Migration = {
  version: 40,
  stamp: "1.32.65",
  statements: [
    `ALTER TABLE proposals ADD COLUMN ump_id TEXT`,
    `ALTER TABLE proposals ADD COLUMN ump_record TEXT`,
    `CREATE INDEX IF NOT EXISTS proposals_ump_id ON proposals(ump_id)`,
  ],
};
