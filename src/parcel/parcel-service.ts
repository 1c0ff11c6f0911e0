/**
 * The parcel service the composition root exposes (SPEC §2.10, §4.5, §4.10):
 * signed parcel export and import, the ledger, and whole-domain snapshots.
 * Body checks live here so HTTP and the CLI refuse the same inputs with the
 * same codes. `authorize(domain)` is the per-operation half of the
 * body-domain gate: it runs once the domain is known, before any write.
 */
import { MemoryError } from "../core/errors.ts";
import { GLOBAL_DOMAIN, normalizeDomainName } from "../domains/domain-name.ts";
import { domainExists } from "../store/domains.ts";
import { listLedgerRows, type LedgerRow } from "../store/parcels.ts";
import { exportParcel, type ExportResult } from "./export-parcel.ts";
import { importParcel, type ImportResult } from "./import-parcel.ts";
import type { ParcelDeps } from "./parcel-deps.ts";
import { exportSnapshot } from "./export-snapshot.ts";
import { parseWith } from "../core/schema.ts";
import { ParcelExportBody, ParcelImportBody, type ParcelExportInput, type ParcelImportInput } from "./parcel-schema.ts";
import { importSnapshot, type SnapshotImportResult } from "./import-snapshot.ts";

/** Who asks, and the domain check of the body-domain gate. */
export interface ParcelCaller {
  /** Recorded as the ledger row's reviewer. */
  reviewer: string;
  /** Throws when the caller may not administer `domain`. */
  authorize?: (domain: string) => void;
}

/** One ledger row as served (SPEC §2.10). */
export interface LedgerView {
  id: number;
  direction: "in" | "out";
  parcel_hash: string;
  signer: string;
  domain: string;
  source_domain: string;
  row_count: number;
  reviewer: string;
  counts: Record<string, unknown>;
  created_at: string;
}

/** Parcel operations. */
export interface ParcelService {
  /** `POST /parcels/export`, body `{domain, since?}`. */
  exportParcel(body: ParcelExportInput, caller: ParcelCaller): Promise<ExportResult>;
  /** `POST /parcels/import`, body `{expected_signer, parcel, domain?}`. */
  importParcel(body: ParcelImportInput, caller: ParcelCaller): Promise<ImportResult>;
  /** `GET /parcels`: the ledger, newest last, `cursor` = the last id seen. */
  ledger(o: { domain?: string; cursor?: string; limit?: string }): Promise<{ rows: LedgerView[]; next_cursor?: string }>;
  /** `GET /domains/{name}/export`: the snapshot stream (gzip'd NDJSON) and a file name. */
  exportSnapshot(name: unknown): Promise<{ stream: ReadableStream<Uint8Array>; filename: string }>;
  /** `POST /domains/{name}/import`: reads a snapshot stream into a new domain, atomically. */
  importSnapshot(name: unknown, body: ReadableStream<Uint8Array> | null, caller: ParcelCaller): Promise<SnapshotImportResult>;
}

/** Builds the parcel service. */
export function createParcelService(d: ParcelDeps): ParcelService {
  return {
    async exportParcel(body, caller) {
      const { domain, since } = parseWith(ParcelExportBody, body);
      caller.authorize?.(domain);
      if (domain !== GLOBAL_DOMAIN && !(await domainExists(d.db.client, domain))) {
        throw new MemoryError("domain_invalid", `domain '${domain}' is not registered`, { field: "domain" });
      }
      return await exportParcel(d, { domain, since, reviewer: caller.reviewer });
    },
    async importParcel(body, caller) {
      return await importParcel(d, parseWith(ParcelImportBody, body), {
        reviewer: caller.reviewer,
        authorize: caller.authorize,
      });
    },
    exportSnapshot: (name) => exportSnapshot(d, name),
    importSnapshot: (name, body, caller) => importSnapshot(d, name, body, { reviewer: caller.reviewer }),
    async ledger(o) {
      const domain = o.domain === undefined ? undefined : normalizeDomainName(o.domain, "domain");
      const after = o.cursor === undefined ? 0 : Number(o.cursor);
      if (!Number.isSafeInteger(after) || after < 0) throw new MemoryError("invalid_request", "cursor must be a ledger id", { field: "cursor" });
      const limit = o.limit === undefined ? 100 : Number(o.limit);
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > 500) throw new MemoryError("limit_out_of_range", "limit must be 1 to 500", { min: 1, max: 500 });
      const rows = await listLedgerRows(d.db.client, { domain, afterId: after, limit });
      const out: { rows: LedgerView[]; next_cursor?: string } = { rows: rows.map(view) };
      if (rows.length === limit) out.next_cursor = String(rows[rows.length - 1].id);
      return out;
    },
  };
}

function view(r: LedgerRow): LedgerView {
  return {
    id: r.id, direction: r.direction, parcel_hash: r.parcelHash, signer: r.signer, domain: r.domain, source_domain: r.sourceDomain,
    row_count: r.rowCount, reviewer: r.reviewer, counts: r.counts, created_at: r.createdAt,
  };
}
