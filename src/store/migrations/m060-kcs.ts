/**
 * Migration 60 (issue 17): KCS articles (SPEC §3 approve row: "a KCS draft
 * knowledge row for capture proposals"; §4.11 `/kcs/translate`). An article
 * is a numbered series of revisions, each landed by one approved capture
 * proposal and pointing at the chunk that approval promoted (or found
 * already stored), linked to its source case by `case_ref` when the capture
 * came from one. Translations are one row per (article, locale), pinned to
 * the revision they translate (`based_revision`); the pending request a
 * `/kcs/translate` proposal stands for waits in `kcs_translation_requests`.
 */
import type { Migration } from "./migration.ts";

/** Articles, revisions, translations and translation requests. */
export const m060Kcs: Migration = {
  version: 60,
  stamp: "1.32.85",
  statements: [
    `CREATE TABLE IF NOT EXISTS kcs_articles (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       domain TEXT NOT NULL,
       locale TEXT NOT NULL,
       case_ref TEXT,
       current_revision INTEGER NOT NULL,
       created_at TEXT NOT NULL,
       updated_at TEXT NOT NULL
     )`,
    `CREATE UNIQUE INDEX IF NOT EXISTS kcs_articles_case ON kcs_articles(case_ref) WHERE case_ref IS NOT NULL`,
    `CREATE INDEX IF NOT EXISTS kcs_articles_domain ON kcs_articles(domain, id)`,
    `CREATE TABLE IF NOT EXISTS kcs_revisions (
       article_id INTEGER NOT NULL,
       revision INTEGER NOT NULL,
       title TEXT NOT NULL,
       body TEXT NOT NULL,
       content_sha256 TEXT NOT NULL,
       proposal_id INTEGER,
       chunk_id INTEGER,
       created_at TEXT NOT NULL,
       PRIMARY KEY (article_id, revision)
     )`,
    `CREATE INDEX IF NOT EXISTS kcs_revisions_chunk ON kcs_revisions(chunk_id)`,
    `CREATE TABLE IF NOT EXISTS kcs_translation_requests (
       proposal_id INTEGER PRIMARY KEY,
       article_id INTEGER NOT NULL,
       locale TEXT NOT NULL,
       based_revision INTEGER NOT NULL,
       status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
       created_at TEXT NOT NULL,
       decided_at TEXT
     )`,
    `CREATE TABLE IF NOT EXISTS kcs_translations (
       article_id INTEGER NOT NULL,
       locale TEXT NOT NULL,
       based_revision INTEGER NOT NULL,
       title TEXT NOT NULL,
       body TEXT NOT NULL,
       proposal_id INTEGER NOT NULL,
       approved_at TEXT NOT NULL,
       PRIMARY KEY (article_id, locale)
     )`,
  ],
};
