/**
 * Migration 95: a proposal keeps the chunk metadata its door computed (issue 24). The conversation door's labels
 * (speaker, session, session date, resolved dates: `meta.conversation`) must reach the chunk an approval promotes,
 * or an approved turn loses the speaker boost. NULL for every other door.
 */
import type { Migration } from "./migration.ts";

/** The `meta_json` column. */
export const m095ProposalMeta: Migration = {
  version: 95,
  stamp: "1.32.96",
  statements: [`ALTER TABLE proposals ADD COLUMN meta_json TEXT`],
};
