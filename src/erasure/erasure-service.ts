/**
 * The erasure service the composition root exposes (SPEC §1 item 6, §4.4):
 * purge, data-subject erasure with its certificate, certificate lookup, and
 * verification of a certificate against this store's audit chain.
 */
import type { AuditService } from "../audit/audit-service.ts";
import { MemoryError } from "../core/errors.ts";
import type { WriteContext } from "../ingest/context.ts";
import { listAuditRaw } from "../store/audit.ts";
import { getCertificate } from "../store/erasure.ts";
import { verifyCertificate, type AuditRowLike, type Certificate, type CertificateCheck, type ErasureSubject } from "./certificate.ts";
import { dsar, type DsarResult } from "./dsar.ts";
import { purge, type PurgeResult } from "./purge.ts";
import type { DsarInput, PurgeInput } from "./erasure-schema.ts";

/** Erasure operations. */
export interface ErasureService {
  purge(body: PurgeInput): Promise<PurgeResult>;
  dsar(body: DsarInput): Promise<DsarResult>;
  certificate(id: string): Promise<Certificate>;
  /** Verifies a certificate against this store's audit rows. */
  verify(cert: unknown, subject?: ErasureSubject): Promise<{ valid: boolean; checks: CertificateCheck[] }>;
}

/** Builds the erasure service. */
export function createErasureService(o: { ctx: WriteContext; audit: AuditService; afterErasure?: (notice: Record<string, unknown>) => void }): ErasureService {
  const db = o.ctx.db;
  return {
    purge: (body) => purge(o, body),
    dsar: (body) => dsar(o, body),
    async certificate(id) {
      const c = await getCertificate(db.client, id);
      if (!c) throw new MemoryError("not_found", `certificate ${id} not found`);
      return c.body as unknown as Certificate;
    },
    async verify(cert, subject) {
      const upTo = Number((cert as { audit?: { row_id?: unknown } } | null)?.audit?.row_id);
      const rows: AuditRowLike[] = [];
      if (Number.isSafeInteger(upTo)) {
        for (let after = 0; after < upTo;) {
          const page = await listAuditRaw(db.client, after, Math.min(1000, upTo - after));
          if (!page.length) break;
          for (const r of page) {
            let detail: Record<string, unknown> = {};
            try {
              detail = JSON.parse(r.detail);
            } catch { /* an unreadable row fails the chain check */ }
            rows.push({ ...r, detail });
          }
          after = page[page.length - 1].id;
        }
      }
      return verifyCertificate(cert, rows, subject);
    },
  };
}
