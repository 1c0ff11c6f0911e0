/**
 * The static case status document (SPEC §2.12): one of seven fixed status
 * words, a promise bucket from the SLA class, one fixed-template sentence
 * and a build stamp. Built only from closed vocabularies, so it cannot carry
 * personal data, deadlines or names: no field of the case or the run's
 * notes is copied into it.
 */
import { VERSION } from "../core/version.ts";
import type { RunRow } from "../store/workflow-runs.ts";
import { PROMISE_BUCKET, type SlaClass } from "./sla.ts";

/** The seven status words (this project's choice; SPEC §2.12 does not list them). */
export const STATUS_WORDS = ["received", "in_progress", "waiting_on_you", "delayed", "reopened", "resolved", "merged"] as const;

/** One status word. */
export type StatusWord = (typeof STATUS_WORDS)[number];

/** The one sentence per word. */
export const STATUS_SENTENCES: Readonly<Record<StatusWord, string>> = Object.freeze({
  received: "We have received your request and it is in our queue.",
  in_progress: "Your request is being worked on by our team.",
  waiting_on_you: "We have replied and are waiting to hear back from you.",
  delayed: "Your request is taking longer than we aimed for; it remains open.",
  reopened: "Your request was reopened and is being worked on again.",
  resolved: "Your request has been resolved.",
  merged: "Your request was combined with a related request and continues there.",
});

/** The document's fields. */
export interface StatusDocument {
  status: StatusWord;
  promise: string;
  sentence: string;
  build: string;
}

/** Which word a run shows (`touched`: the run has outbound replies or notes). */
export function statusWordOf(run: RunRow, o: { nowMs: number; touched: boolean }): StatusWord {
  if (run.state === "merged_away") return "merged";
  if (run.state === "closed_solved") return "resolved";
  if (run.state === "waiting_customer") return "waiting_on_you";
  if (Date.parse(run.dueAt) <= o.nowMs) return "delayed";
  if (run.reopened > 0) return "reopened";
  return o.touched ? "in_progress" : "received";
}

/**
 * Builds the document. The build stamp is the server version and a build number (minutes since the epoch, base 36):
 * a freshness mark that orders builds, written so that no calendar date (which could read as a deadline) appears.
 */
export function statusDocument(run: RunRow, o: { now: Date; touched: boolean }): StatusDocument {
  const status = statusWordOf(run, { nowMs: o.now.getTime(), touched: o.touched });
  return {
    status,
    promise: PROMISE_BUCKET[run.slaClass as SlaClass] ?? PROMISE_BUCKET.normal,
    sentence: STATUS_SENTENCES[status],
    build: `cairn/${VERSION}+b${Math.floor(o.now.getTime() / 60_000).toString(36)}`,
  };
}
