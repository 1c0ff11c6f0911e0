/**
 * Deletion certificates (SPEC §1 item 6: "a data-subject-erasure workflow
 * that issues a chain-verifiable deletion certificate"). Format
 * `cairn-erasure-certificate/1`, a JSON object:
 *
 * ```
 * { format, id, issued_at,
 *   subject: { fields: ["owner"|"email"|"match"…], salt, digest },
 *   erased:  { chunk_ids: [...], proposal_ids: [...], links: n, entities: n, relations: n,
 *              tables: { <table>: rows deleted }, redacted: { <table>: rows rewritten },
 *              retained: { audit_log: rows left as written } },
 *   digest,                                  // sha256 hex of JCS(all fields above)
 *   audit:   { row_id, prev_hash, row_hash } // the `erasure` row that records `digest`
 * }
 * ```
 *
 * `subject.digest` is SHA-256 over JCS `{salt, subject}` (email lowercased),
 * so the certificate and the audit log name nobody, while the data subject,
 * who knows the subject and holds the certificate, can check it was theirs.
 *
 * Anyone holding the certificate and the audit rows from the first row
 * through `audit.row_id` (`GET /audit`) verifies it: the digest recomputes;
 * that row is an `erasure` row whose detail carries this certificate's id
 * and digest; its hash and link equal the certificate's; and the chain from
 * the genesis link through that row recomputes (SHA-256 over the previous
 * hash and the row's JCS bytes, as `GET /audit/verify` does).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { chainHash, GENESIS_HASH } from "../audit/chain-hash.ts";
import { canonicalize } from "../ump/canonical-json.ts";

/** The certificate format label. */
export const CERTIFICATE_FORMAT = "cairn-erasure-certificate/1";

/** Who the erasure was about, as given. */
export interface ErasureSubject {
  owner?: string;
  email?: string;
  match?: string;
}

/** A deletion certificate. */
export interface Certificate {
  format: typeof CERTIFICATE_FORMAT;
  id: string;
  issued_at: string;
  subject: { fields: string[]; salt: string; digest: string };
  /**
   * `tables`: rows deleted, by table; `redacted`: rows whose subject text was overwritten in place, by table (issue 35;
   * certificates issued before carry neither).
   */
  erased: {
    chunk_ids: number[]; proposal_ids: number[]; links: number; entities: number; relations: number;
    tables?: Record<string, number>; redacted?: Record<string, number>;
    /** Rows that still name the subject and that no erasure may change: `audit_log` rows written before identifiers were hashed. */
    retained?: Record<string, number>;
  };
  digest: string;
  audit: { row_id: number; prev_hash: string; row_hash: string };
}

/** An audit row as served by `GET /audit`. */
export interface AuditRowLike {
  id: number;
  ts: string;
  action: string;
  actor?: string | null;
  target?: string | null;
  detail: Record<string, unknown>;
  prev_hash: string;
  hash: string;
}

/** One verification check. */
export interface CertificateCheck {
  name: "format" | "digest" | "audit_row" | "chain" | "subject";
  ok: boolean;
  detail?: string;
}

const hex = (s: string) => bytesToHex(sha256(new TextEncoder().encode(s)));

function normalSubject(s: ErasureSubject): ErasureSubject {
  const o: ErasureSubject = {};
  if (s.owner !== undefined) o.owner = s.owner;
  if (s.email !== undefined) o.email = s.email.toLowerCase();
  if (s.match !== undefined) o.match = s.match;
  return o;
}

/** The salted subject digest. */
export function subjectDigest(subject: ErasureSubject, salt: string): string {
  return hex(canonicalize({ salt, subject: normalSubject(subject) }));
}

/** The certificate digest: SHA-256 of the JCS form of everything but `digest` and `audit`. */
export function certificateDigest(c: Omit<Certificate, "digest" | "audit">): string {
  return hex(canonicalize({ format: c.format, id: c.id, issued_at: c.issued_at, subject: c.subject, erased: c.erased }));
}

/** Verifies a certificate against audit rows (ascending, from the first row through at least `audit.row_id`). */
export function verifyCertificate(cert: unknown, rows: readonly AuditRowLike[], subject?: ErasureSubject): { valid: boolean; checks: CertificateCheck[] } {
  const checks: CertificateCheck[] = [];
  const done = () => ({ valid: checks.every((c) => c.ok), checks });
  const c = cert as Certificate;
  const shaped = typeof c === "object" && c !== null && c.format === CERTIFICATE_FORMAT && typeof c.id === "string" &&
    typeof c.digest === "string" && typeof c.audit === "object" && c.audit !== null && Number.isSafeInteger(c.audit.row_id) &&
    typeof c.subject === "object" && c.subject !== null && typeof c.erased === "object" && c.erased !== null;
  checks.push({ name: "format", ok: shaped, detail: shaped ? undefined : `not a ${CERTIFICATE_FORMAT} document` });
  if (!shaped) return done();
  let digest = "";
  try {
    digest = certificateDigest(c);
  } catch {
    digest = "";
  }
  checks.push({ name: "digest", ok: digest === c.digest, detail: digest === c.digest ? undefined : "certificate fields do not match its digest" });
  const row = rows.find((r) => r.id === c.audit.row_id);
  const rowOk = row !== undefined && row.action === "erasure" && row.detail.certificate_id === c.id &&
    row.detail.certificate_digest === c.digest && row.hash === c.audit.row_hash && row.prev_hash === c.audit.prev_hash;
  checks.push({ name: "audit_row", ok: rowOk, detail: rowOk ? undefined : row ? `audit row ${c.audit.row_id} does not record this certificate` : `audit row ${c.audit.row_id} not found` });
  let prev = GENESIS_HASH;
  let chainOk = row !== undefined;
  let broken: number | undefined;
  for (const r of rows) {
    if (r.id > c.audit.row_id) break;
    const h = chainHash(prev, { id: r.id, ts: r.ts, action: r.action, actor: r.actor ?? null, target: r.target ?? null, detail: r.detail });
    if (r.prev_hash !== prev || r.hash !== h) {
      chainOk = false;
      broken = r.id;
      break;
    }
    prev = r.hash;
  }
  checks.push({ name: "chain", ok: chainOk, detail: chainOk ? undefined : broken !== undefined ? `chain broken at audit row ${broken}` : "audit rows do not reach the certificate's row" });
  if (subject !== undefined) {
    const ok = subjectDigest(subject, c.subject.salt) === c.subject.digest;
    checks.push({ name: "subject", ok, detail: ok ? undefined : "the given subject is not the certificate's subject" });
  }
  return done();
}
