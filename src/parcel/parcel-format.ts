/**
 * The parcel wire format (SPEC §2.10, §5 item 9): `{manifest, signature,
 * signed_by}`. The manifest is a JSON object whose RFC 8785 canonical form
 * (the UMP canonical JSON, `src/ump/canonical-json.ts`) is what the
 * signature covers: `signature = "ed25519:" + base64(Ed25519(canonical
 * manifest bytes))` with the operator key, `signed_by` its `did:key`. The
 * parcel hash is `sha256:` + hex SHA-256 of the same bytes. Shapes are
 * checked here; the signature and the counterparty in `verify-parcel.ts`.
 */
import { MemoryError } from "../core/errors.ts";
import { INGEST_KINDS, type IngestKind } from "../core/types.ts";

/** The manifest's format tag. */
export const PARCEL_FORMAT = "cairn-parcel/1";

/**
 * The size cap of a parcel's canonical manifest (this project's choice): 900 KiB, so that the whole import body
 * (`{expected_signer, parcel}`) stays under the 1 MiB request limit of SPEC §8. Export refuses a bigger parcel with
 * `parcel_too_large`; narrow it with `since`.
 */
export const MAX_PARCEL_BYTES = 900 * 1024;

/** One graph edge a shipped row asserts, by entity names. */
export interface ParcelEdge {
  from: string;
  from_type?: string;
  to: string;
  to_type?: string;
  type: string;
  valid_at?: string;
  invalid_at?: string;
}

/** A shipped row's labels and provenance (SPEC §2.1). */
export interface ParcelLabels {
  source: IngestKind;
  origin?: string;
  origin_source?: string;
  memory_kind?: string;
  lawful_basis?: string;
  region?: string;
  confidence: number;
  assertion_kind?: string;
  expires_at?: string;
  authority?: number;
}

/** One shipped row. */
export interface ParcelRow {
  content_hash: string;
  content: string;
  title?: string;
  created_at: string;
  labels: ParcelLabels;
  edges: ParcelEdge[];
}

/** The signed manifest. */
export interface ParcelManifest {
  format: typeof PARCEL_FORMAT;
  source_domain: string;
  /** The rows' common `region` label, `mixed` when they differ, `unspecified` when none has one. */
  region: string;
  since?: string;
  created_at: string;
  /** The signer's `did:key`, inside the signed bytes too. */
  signer: string;
  row_count: number;
  rows: ParcelRow[];
}

/** A parcel. */
export interface Parcel {
  manifest: ParcelManifest;
  signature: string;
  signed_by: string;
}

const bytes = (s: string) => new TextEncoder().encode(s).length;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const optStr = (v: unknown) => v === undefined || typeof v === "string";

function invalid(message: string, details?: Record<string, unknown>): MemoryError {
  return new MemoryError("parcel_invalid", message, details);
}

/** The outer shape: an object with a manifest object and string signature and signer (contents checked later). */
export function parcelEnvelope(v: unknown): { manifest: Record<string, unknown>; signature: string; signed_by: string } {
  if (!isObj(v)) throw invalid("parcel must be an object {manifest, signature, signed_by}", { field: "parcel" });
  if (!isObj(v.manifest)) throw invalid("parcel.manifest must be an object", { field: "parcel.manifest" });
  if (typeof v.signature !== "string") throw invalid("parcel.signature must be a string", { field: "parcel.signature" });
  if (typeof v.signed_by !== "string") throw invalid("parcel.signed_by must be a string", { field: "parcel.signed_by" });
  return { manifest: v.manifest, signature: v.signature, signed_by: v.signed_by };
}

/** Checks a (signature-verified) manifest's contents; returns it typed. */
export function checkManifest(m: Record<string, unknown>): ParcelManifest {
  if (m.format !== PARCEL_FORMAT) throw invalid(`manifest.format must be '${PARCEL_FORMAT}'`, { field: "manifest.format" });
  for (const k of ["source_domain", "region", "created_at", "signer"]) {
    if (typeof m[k] !== "string") throw invalid(`manifest.${k} must be a string`, { field: `manifest.${k}` });
  }
  if (!optStr(m.since)) throw invalid("manifest.since must be a string", { field: "manifest.since" });
  if (!Array.isArray(m.rows)) throw invalid("manifest.rows must be an array", { field: "manifest.rows" });
  if (m.row_count !== m.rows.length) throw invalid("manifest.row_count does not match its rows", { row_count: m.row_count, rows: m.rows.length });
  m.rows.forEach((r, i) => checkRow(r, i));
  return m as unknown as ParcelManifest;
}

function checkRow(r: unknown, i: number): void {
  const at = (f: string) => ({ field: `manifest.rows.${i}.${f}`, index: i });
  if (!isObj(r)) throw invalid(`row ${i} must be an object`, { index: i });
  if (typeof r.content !== "string" || r.content.length === 0) throw invalid(`row ${i}: content must be a non-empty string`, at("content"));
  if (typeof r.content_hash !== "string") throw invalid(`row ${i}: content_hash must be a string`, at("content_hash"));
  // SPEC §8: the same content and title limits as every write door.
  if (bytes(r.content) > 1_000_000) throw invalid(`row ${i}: content is over 1,000,000 bytes`, at("content"));
  if (!optStr(r.title) || (typeof r.title === "string" && (r.title.length === 0 || bytes(r.title) > 500))) {
    throw invalid(`row ${i}: title must be a string of 1 to 500 bytes`, at("title"));
  }
  if (typeof r.created_at !== "string") throw invalid(`row ${i}: created_at must be a string`, at("created_at"));
  const l = r.labels;
  if (!isObj(l) || !INGEST_KINDS.includes(l.source as IngestKind) || typeof l.confidence !== "number") {
    throw invalid(`row ${i}: labels must carry source and confidence`, at("labels"));
  }
  for (const k of ["origin", "origin_source", "memory_kind", "lawful_basis", "region", "assertion_kind", "expires_at"]) {
    if (!optStr(l[k])) throw invalid(`row ${i}: labels.${k} must be a string`, at(`labels.${k}`));
  }
  if (l.authority !== undefined && typeof l.authority !== "number") throw invalid(`row ${i}: labels.authority must be a number`, at("labels.authority"));
  if (!Array.isArray(r.edges)) throw invalid(`row ${i}: edges must be an array`, at("edges"));
  r.edges.forEach((e, j) => {
    const ok = isObj(e) && typeof e.from === "string" && typeof e.to === "string" && typeof e.type === "string" &&
      optStr(e.from_type) && optStr(e.to_type) && optStr(e.valid_at) && optStr(e.invalid_at);
    if (!ok) throw invalid(`row ${i}: edge ${j} must be {from, to, type}`, at(`edges.${j}`));
  });
}

/** `sha256:<hex>` of the canonical manifest bytes: the parcel hash. */
export async function parcelHash(canonical: Uint8Array): Promise<string> {
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", canonical as BufferSource));
  return "sha256:" + [...d].map((b) => b.toString(16).padStart(2, "0")).join("");
}
