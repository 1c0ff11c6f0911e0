/**
 * The CrmCase envelope (SPEC §2.11): every ticketing source normalizes to
 * this before it reaches the workflow service (`memory.workflow.applyCase`).
 * Validation refuses anything that could carry raw personal data where only
 * a hash belongs (`subject_ref` must be a SHA-256 hex digest) and any
 * `case_ref` other than `crm:{source}:{org}:{id}`.
 */
import { MemoryError } from "../core/errors.ts";

/** Case status (SPEC §2.11). */
export type CaseStatus = "open" | "closed_solved" | "merged_away";

/** A normalized ticketing case (SPEC §2.11). */
export interface CrmCase {
  /** Vendor label: one of the built-in connectors' labels or a custom shim's label. */
  source: string;
  org_id: string;
  case_id: string;
  /** `crm:{source}:{org}:{id}`, the run-linkage key; derived when absent. */
  case_ref: string;
  title: string;
  status: CaseStatus;
  /** Verbatim vendor string. */
  priority?: string;
  /** Salted SHA-256 (64 hex) of the customer identity; never raw personal data. */
  subject_ref: string;
  /** Vendor revision marker: the same revision twice is applied once. */
  updated_rev: string;
  /** Vendor timestamp, ISO-8601, kept verbatim. */
  updated_at: string;
  /** Untrusted; enters only as a proposal. */
  body_markdown?: string;
  is_seed?: string[];
  is_not_seed?: string[];
  /** The surviving case's vendor id; only with status `merged_away`. */
  merged_into?: string;
  /** True when a previously closed work item reopened. */
  reopened?: boolean;
}

const LABEL = /^[a-z][a-z0-9_-]{0,31}$/;
const SEGMENT = /^[^:\s]{1,128}$/;
const HEX64 = /^[0-9a-f]{64}$/;
const ISO = /^\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:?\d{2})?)?$/;
/** A `crm:{source}:{org}:{id}` case reference. */
export const CASE_REF = /^crm:[a-z][a-z0-9_-]{0,31}:[^:\s]{1,128}:[^:\s]{1,128}$/;

function bad(field: string, message: string): MemoryError {
  return new MemoryError("case_invalid", `${field}: ${message}`, { field }, 400);
}

function str(b: Record<string, unknown>, field: string, max: number, required = true): string | undefined {
  const v = b[field];
  if (v === undefined && !required) return undefined;
  if (typeof v !== "string" || v.trim() === "") throw bad(field, "must be a non-empty string");
  if (v.length > max) throw bad(field, `must be at most ${max} characters`);
  return v;
}

function seeds(b: Record<string, unknown>, field: string): string[] | undefined {
  const v = b[field];
  if (v === undefined) return undefined;
  if (!Array.isArray(v) || v.length > 50 || v.some((x) => typeof x !== "string" || x.length > 200)) throw bad(field, "must be at most 50 strings of at most 200 characters");
  return v as string[];
}

/** The case reference of a source, org and case id. */
export function caseRefOf(source: string, org: string, id: string): string {
  return `crm:${source}:${org}:${id}`;
}

/** Validates a case envelope (`{case: {...}}` or the bare case); throws 400 `case_invalid` naming the field. */
export function parseCrmCase(body: unknown): CrmCase {
  const raw = body !== null && typeof body === "object" && "case" in body ? (body as { case: unknown }).case : body;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) throw bad("case", "must be an object");
  const b = raw as Record<string, unknown>;
  const source = str(b, "source", 32)!;
  if (!LABEL.test(source)) throw bad("source", "must match ^[a-z][a-z0-9_-]{0,31}$");
  const org = str(b, "org_id", 128)!;
  const id = str(b, "case_id", 128)!;
  if (!SEGMENT.test(org)) throw bad("org_id", "must not contain ':' or whitespace");
  if (!SEGMENT.test(id)) throw bad("case_id", "must not contain ':' or whitespace");
  const ref = caseRefOf(source, org, id);
  if (b.case_ref !== undefined && b.case_ref !== ref) throw bad("case_ref", "must equal crm:{source}:{org_id}:{case_id}");
  const status = b.status;
  if (status !== "open" && status !== "closed_solved" && status !== "merged_away") throw bad("status", "must be open, closed_solved or merged_away");
  const subject = str(b, "subject_ref", 64)!;
  // SPEC §2.11: raw personal data is never stored; only a salted SHA-256 hex digest is accepted.
  if (!HEX64.test(subject)) throw bad("subject_ref", "must be a salted SHA-256 hex digest (64 lower-case hex characters)");
  const updatedAt = str(b, "updated_at", 64)!;
  if (!ISO.test(updatedAt)) throw bad("updated_at", "must be an ISO-8601 timestamp");
  const c: CrmCase = {
    source, org_id: org, case_id: id, case_ref: ref, title: str(b, "title", 500)!, status, subject_ref: subject,
    updated_rev: str(b, "updated_rev", 128)!, updated_at: updatedAt,
  };
  const priority = str(b, "priority", 64, false);
  if (priority !== undefined) c.priority = priority;
  const body_ = b.body_markdown;
  if (body_ !== undefined) {
    if (typeof body_ !== "string" || body_.length > 1_000_000) throw bad("body_markdown", "must be a string of at most 1,000,000 characters");
    if (body_.trim() !== "") c.body_markdown = body_;
  }
  const is = seeds(b, "is_seed");
  if (is) c.is_seed = is;
  const isNot = seeds(b, "is_not_seed");
  if (isNot) c.is_not_seed = isNot;
  const merged = str(b, "merged_into", 128, false);
  if (merged !== undefined) {
    if (status !== "merged_away") throw bad("merged_into", "is set only when status is merged_away");
    c.merged_into = merged;
  } else if (status === "merged_away") throw bad("merged_into", "is required when status is merged_away");
  if (b.reopened !== undefined) {
    if (typeof b.reopened !== "boolean") throw bad("reopened", "must be a boolean");
    c.reopened = b.reopened;
  }
  return c;
}

/** The case as kept on the run: everything but the untrusted body. */
export function caseRecord(c: CrmCase): Record<string, unknown> {
  const { body_markdown: _body, ...rest } = c;
  return rest;
}
