/**
 * `POST /parcels/export` (SPEC §4.10, §5 item 9): a signed parcel of one
 * domain's promoted, non-quarantined rows — each chunk with its labels and
 * provenance and the current graph edges it asserts — built in pages of 500
 * rows, signed with the operator key (no key → `operator_key_missing`:
 * unsigned export is not offered), refused over `MAX_PARCEL_BYTES` with
 * `parcel_too_large`. The ledger row (direction `out`) and its audit row
 * commit in one transaction before the parcel is returned.
 */
import type { Chunk } from "../core/types.ts";
import { MemoryError } from "../core/errors.ts";
import { canonicalBytes } from "../ump/canonical-json.ts";
import { signBytes } from "../ump/sign.ts";
import { dbOfDomain } from "../store/domain-dbs.ts";
import { edgesAssertedBy, exportableChunks, insertLedgerRow, type AssertedEdge } from "../store/parcels.ts";
import { MAX_PARCEL_BYTES, PARCEL_FORMAT, parcelHash, type Parcel, type ParcelEdge, type ParcelManifest, type ParcelRow } from "./parcel-format.ts";
import type { ParcelDeps } from "./parcel-deps.ts";

/** The export reply (SPEC §2.10: the parcel plus its hash, source domain, region and row count). */
export interface ExportResult {
  parcel: Parcel;
  parcel_hash: string;
  source_domain: string;
  region: string;
  row_count: number;
  ledger_id: number;
}

/** Builds, signs and ledgers a parcel of `domain` (already normalised and registered). */
export async function exportParcel(d: ParcelDeps, o: { domain: string; since?: string; reviewer: string }): Promise<ExportResult> {
  const seed = d.keys();
  if (!seed) throw new MemoryError("operator_key_missing", "No operator key is configured; run `cairn ump keygen` first (unsigned export is not offered)");
  const signer = d.didOf(seed);
  const rows: ParcelRow[] = [];
  let bytes = 0;
  for (let after = 0; ;) {
    // Multi-database mode: the domain's rows are in its own database.
    const page = await exportableChunks(dbOfDomain(d.db, o.domain).client, { domain: o.domain, since: o.since, afterId: after, limit: 500 });
    if (page.length === 0) break;
    const edges = await edgesAssertedBy(dbOfDomain(d.db, o.domain).client, page.map((c) => c.id));
    for (const c of page) {
      const row = toRow(c, edges.filter((e) => e.chunkId === c.id));
      bytes += row.content.length + 256;
      rows.push(row);
    }
    // A cheap running estimate stops early on a huge domain; the exact check is on the canonical bytes below.
    if (bytes > 4 * MAX_PARCEL_BYTES) throw tooLarge(bytes, rows.length);
    after = page[page.length - 1].id;
  }
  const manifest: ParcelManifest = {
    format: PARCEL_FORMAT, source_domain: o.domain, region: regionOf(rows), created_at: d.clock().toISOString(), signer,
    row_count: rows.length, rows,
  };
  if (o.since !== undefined) manifest.since = o.since;
  const canonical = canonicalBytes(manifest);
  if (canonical.length > MAX_PARCEL_BYTES) throw tooLarge(canonical.length, rows.length);
  const hash = await parcelHash(canonical);
  const parcel: Parcel = { manifest, signature: signBytes(canonical, seed), signed_by: signer };
  const ledgerId = await d.db.write(async (tx) => {
    const id = await insertLedgerRow(tx, {
      direction: "out", parcelHash: hash, signer, domain: o.domain, sourceDomain: o.domain, rowCount: rows.length, reviewer: o.reviewer,
      counts: { rows: rows.length, bytes: canonical.length }, createdAt: manifest.created_at,
    });
    // SPEC §6: parcel export writes a hash-chained audit row, in the ledger row's transaction (§4.10).
    await d.audit.append(tx, {
      action: "parcel_export", actor: o.reviewer, target: `parcel:${hash}`,
      detail: { ledger_id: id, parcel_hash: hash, signer, domain: o.domain, row_count: rows.length, ...(o.since ? { since: o.since } : {}) },
    });
    return id;
  });
  return { parcel, parcel_hash: hash, source_domain: o.domain, region: manifest.region, row_count: rows.length, ledger_id: ledgerId };
}

function tooLarge(bytes: number, rows: number): MemoryError {
  return new MemoryError("parcel_too_large", `The parcel would exceed ${MAX_PARCEL_BYTES} bytes; export fewer rows with since`, {
    max_bytes: MAX_PARCEL_BYTES, bytes, rows,
  });
}

function toRow(c: Chunk, edges: AssertedEdge[]): ParcelRow {
  const labels: ParcelRow["labels"] = { source: c.source, confidence: c.confidence };
  if (c.origin !== undefined) labels.origin = c.origin;
  if (c.originSource !== undefined) labels.origin_source = c.originSource;
  if (c.memoryKind !== undefined) labels.memory_kind = c.memoryKind;
  if (c.lawfulBasis !== undefined) labels.lawful_basis = c.lawfulBasis;
  if (c.region !== undefined) labels.region = c.region;
  if (c.assertionKind !== undefined) labels.assertion_kind = c.assertionKind;
  if (c.expiresAt !== undefined) labels.expires_at = c.expiresAt;
  if (c.authority !== undefined) labels.authority = c.authority;
  const row: ParcelRow = { content_hash: c.contentHash, content: c.content, created_at: c.createdAt, labels, edges: edges.map(toEdge) };
  if (c.title !== undefined) row.title = c.title;
  return row;
}

function toEdge(e: AssertedEdge): ParcelEdge {
  const out: ParcelEdge = { from: e.from, to: e.to, type: e.type };
  if (e.fromType !== undefined) out.from_type = e.fromType;
  if (e.toType !== undefined) out.to_type = e.toType;
  if (e.validAt !== undefined) out.valid_at = e.validAt;
  if (e.invalidAt !== undefined) out.invalid_at = e.invalidAt;
  return out;
}

function regionOf(rows: readonly ParcelRow[]): string {
  const set = new Set(rows.map((r) => r.labels.region).filter((x): x is string => x !== undefined));
  return set.size === 0 ? "unspecified" : set.size === 1 ? [...set][0]! : "mixed";
}
