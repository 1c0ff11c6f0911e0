/**
 * Migration 30: case governance (SPEC §2.11, §2.12, §3 "Governed runs", §4.11,
 * §6). Governed runs keyed by `case_ref`, the event outbox (one row per
 * governed case event, each pointing at its hash-chained audit row), inbound
 * channel messages (deduplicated by `external_id`), outbound `channel/out`
 * envelopes bound to their review proposal, Standard-Webhooks receipts
 * (replay refusal), case status references, plugin mounts and merge
 * suggestions. Proposal and chunk ids are plain integers, as in migration 8.
 */
import type { Migration } from "./migration.ts";

/** Workflow runs, the outbox and the channel tables. */
export const m030Workflow: Migration = {
  version: 30,
  stamp: "1.32.55",
  statements: [
    `CREATE TABLE IF NOT EXISTS workflow_runs (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       case_ref TEXT NOT NULL UNIQUE,
       origin TEXT NOT NULL,
       state TEXT NOT NULL CHECK (state IN ('open', 'waiting_customer', 'closed_solved', 'merged_away')),
       state_json TEXT NOT NULL,
       case_json TEXT,
       case_rev TEXT,
       subject_ref TEXT,
       sla_class TEXT NOT NULL,
       reopened INTEGER NOT NULL DEFAULT 0,
       channel_kind TEXT,
       conversation_ref TEXT,
       solve_lookups INTEGER NOT NULL DEFAULT 0,
       opened_at TEXT NOT NULL,
       active_since TEXT NOT NULL,
       updated_at TEXT NOT NULL,
       closed_at TEXT,
       due_at TEXT NOT NULL,
       due_emitted_at TEXT
     )`,
    `CREATE INDEX IF NOT EXISTS workflow_runs_subject ON workflow_runs(subject_ref, closed_at)`,
    `CREATE INDEX IF NOT EXISTS workflow_runs_conversation ON workflow_runs(channel_kind, conversation_ref)`,
    `CREATE INDEX IF NOT EXISTS workflow_runs_due ON workflow_runs(due_emitted_at, due_at)`,
    `CREATE TABLE IF NOT EXISTS workflow_events (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       run_id INTEGER,
       type TEXT NOT NULL,
       payload TEXT NOT NULL,
       audit_id INTEGER NOT NULL,
       created_at TEXT NOT NULL,
       dispatched_at TEXT
     )`,
    `CREATE INDEX IF NOT EXISTS workflow_events_run ON workflow_events(run_id, id)`,
    `CREATE INDEX IF NOT EXISTS workflow_events_pending ON workflow_events(dispatched_at, id)`,
    `CREATE TABLE IF NOT EXISTS channel_messages (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       kind TEXT NOT NULL,
       external_id TEXT NOT NULL,
       conversation_ref TEXT NOT NULL,
       run_id INTEGER,
       proposal_id INTEGER,
       verdict TEXT NOT NULL,
       received_at TEXT NOT NULL,
       UNIQUE (kind, external_id)
     )`,
    `CREATE TABLE IF NOT EXISTS channel_out (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       run_id INTEGER NOT NULL,
       kind TEXT NOT NULL,
       conversation_ref TEXT NOT NULL,
       text TEXT NOT NULL,
       proposal_id INTEGER NOT NULL UNIQUE,
       status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected', 'delivered')),
       created_at TEXT NOT NULL,
       approved_at TEXT,
       delivered_at TEXT,
       drain_id TEXT
     )`,
    `CREATE INDEX IF NOT EXISTS channel_out_drain ON channel_out(kind, status, id)`,
    `CREATE INDEX IF NOT EXISTS channel_out_drain_id ON channel_out(drain_id)`,
    `CREATE TABLE IF NOT EXISTS webhook_receipts (
       webhook_id TEXT PRIMARY KEY,
       route TEXT NOT NULL,
       received_at TEXT NOT NULL
     )`,
    `CREATE TABLE IF NOT EXISTS case_status_refs (
       ref TEXT PRIMARY KEY,
       run_id INTEGER NOT NULL,
       minted_at TEXT NOT NULL
     )`,
    `CREATE TABLE IF NOT EXISTS plugin_mounts (
       id INTEGER PRIMARY KEY AUTOINCREMENT,
       plugin TEXT NOT NULL,
       kind TEXT NOT NULL,
       config_sha256 TEXT NOT NULL,
       mounted_at TEXT NOT NULL
     )`,
    `CREATE TABLE IF NOT EXISTS case_merge_suggestions (
       proposal_id INTEGER PRIMARY KEY,
       run_id INTEGER NOT NULL,
       prior_run_id INTEGER NOT NULL,
       basis TEXT NOT NULL CHECK (basis IN ('subject_match', 'crm_merge')),
       status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'rejected')),
       created_at TEXT NOT NULL
     )`,
  ],
};
