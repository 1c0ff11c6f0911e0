/**
 * `POST /parcels/import` (SPEC §3 "imported parcel rows", §4.10, §5 item 9,
 * §7). Nothing is written until every check passed, in this order:
 * `expected_signer` present (400 `signer_required`); the parcel's outer
 * shape (400 `parcel_invalid`); this server's own key named for a parcel
 * someone else signed (409 `signer_alias`); `expected_signer` equal to
 * `signed_by` (400 `signer_mismatch`); the canonical manifest within
 * `MAX_PARCEL_BYTES` (`parcel_too_large`); the Ed25519 signature over the
 * canonical manifest bytes (400 `signature_invalid`); the manifest's own
 * signer and rows (400 `parcel_invalid`, e.g. a content hash that does not
 * match its content).
 *
 * Accepted rows land as pending proposals — a parcel never promotes by
 * itself — deduplicated by content hash against memory, pending proposals
 * and the parcel itself, and screened by the injection screen: a row the
 * screen quarantines is filed with its verdict (approving it stores it
 * flagged), a row it rejects is not filed. The proposals, their audit rows,
 * the ledger row (direction `in`) and the `parcel_import` audit row commit
 * in one transaction.
 */
import { xxh3Hex } from "../core/content-hash.ts";
import { MemoryError } from "../core/errors.ts";
import { normalizeDomainName } from "../domains/domain-name.ts";
import { writeAction } from "../hygiene/injection-policy.ts";
import { screen } from "../hygiene/screen.ts";
import { scoreProposal } from "../review/score-proposal.ts";
import { findChunksByHashes } from "../store/chunks.ts";
import { insertDomain } from "../store/domains.ts";
import { insertLedgerRow, pendingProposalHashes, setProposalCarried } from "../store/parcels.ts";
import { insertProposal } from "../store/proposals.ts";
import { canonicalBytes } from "../ump/canonical-json.ts";
import { verifyBytesAsync } from "../ump/sign.ts";
import type { ParcelDeps } from "./parcel-deps.ts";
import type { z } from "zod";
import type { ParcelImportBody } from "./parcel-schema.ts";
import { checkManifest, MAX_PARCEL_BYTES, parcelEnvelope, parcelHash, type ParcelRow } from "./parcel-format.ts";

/** The import reply (this project's shape): what arrived and what became of it. */
export interface ImportResult {
  parcel_hash: string;
  signer: string;
  source_domain: string;
  domain: string;
  received: number;
  duplicate: number;
  screened: { quarantined: number; rejected: number };
  filed: number;
  proposal_ids: number[];
  ledger_id: number;
}

/** The import request body. */
export type ImportRequest = z.output<typeof ParcelImportBody>;

/** The door imported proposals are filed through. */
export const PARCEL_DOOR = "/parcels/import";

/** Verifies a parcel, then files its new rows as pending proposals. */
export async function importParcel(d: ParcelDeps, body: ImportRequest, o: { reviewer: string; authorize?: (domain: string) => void }): Promise<ImportResult> {
  const expected = body.expected_signer;
  if (typeof expected !== "string" || expected.trim() === "") {
    throw new MemoryError("signer_required", "expected_signer is required: the did:key you expect the parcel to be signed by", { field: "expected_signer" });
  }
  const p = parcelEnvelope(body.parcel);
  const seed = d.keys();
  const own = seed ? d.didOf(seed) : undefined;
  // SPEC §7: naming this server's own key for a parcel another key signed is an alias, not a simple mismatch.
  if (own !== undefined && expected === own && p.signed_by !== own) {
    throw new MemoryError("signer_alias", "expected_signer names this server's own key, but the parcel was signed by another key", {
      signed_by: p.signed_by,
    });
  }
  if (expected !== p.signed_by) {
    throw new MemoryError("signer_mismatch", "The parcel is not signed by expected_signer", { expected_signer: expected, signed_by: p.signed_by });
  }
  const canonical = canonicalOf(p.manifest);
  if (canonical.length > MAX_PARCEL_BYTES) {
    throw new MemoryError("parcel_too_large", `The parcel exceeds ${MAX_PARCEL_BYTES} bytes`, { max_bytes: MAX_PARCEL_BYTES, bytes: canonical.length });
  }
  if (!(await verifyBytesAsync(p.signature, canonical, p.signed_by))) {
    throw new MemoryError("signature_invalid", "The parcel signature does not verify against signed_by");
  }
  const manifest = checkManifest(p.manifest);
  if (manifest.signer !== p.signed_by) throw new MemoryError("parcel_invalid", "manifest.signer differs from signed_by", { field: "manifest.signer" });
  for (const [i, r] of manifest.rows.entries()) {
    if ((await xxh3Hex(r.content)) !== r.content_hash) {
      throw new MemoryError("parcel_invalid", `row ${i}: content_hash does not match its content`, { index: i, field: `manifest.rows.${i}.content_hash` });
    }
  }
  const domain = normalizeDomainName(body.domain ?? manifest.source_domain, body.domain === undefined ? "parcel.manifest.source_domain" : "domain");
  o.authorize?.(domain);
  const hash = await parcelHash(canonical);
  return await fileRows(d, { rows: manifest.rows, domain, hash, signer: p.signed_by, sourceDomain: manifest.source_domain, reviewer: o.reviewer });
}

function canonicalOf(manifest: Record<string, unknown>): Uint8Array {
  try {
    return canonicalBytes(manifest);
  } catch {
    throw new MemoryError("parcel_invalid", "parcel.manifest has no canonical JSON form", { field: "parcel.manifest" });
  }
}

type Plan = { row: ParcelRow; verdict: ReturnType<typeof screen> };

async function fileRows(
  d: ParcelDeps,
  o: { rows: ParcelRow[]; domain: string; hash: string; signer: string; sourceDomain: string; reviewer: string },
): Promise<ImportResult> {
  const policy = d.ctx.injectionPolicy;
  const counts = { received: o.rows.length, duplicate: 0, quarantined: 0, rejected: 0, filed: 0 };
  const now = d.clock().toISOString();
  return await d.db.write(async (tx) => {
    // Inside the serialised transaction, so a concurrent import of the same rows cannot file them twice.
    const hashes = o.rows.map((r) => r.content_hash);
    const stored = await findChunksByHashes(tx, hashes);
    const pending = await pendingProposalHashes(tx, hashes);
    const seen = new Set<string>();
    const plans: Plan[] = [];
    for (const row of o.rows) {
      if (stored.has(row.content_hash) || pending.has(row.content_hash) || seen.has(row.content_hash)) {
        counts.duplicate++;
        continue;
      }
      seen.add(row.content_hash);
      const verdict = screen(row.title ? `${row.title}\n${row.content}` : row.content);
      const action = writeAction(verdict.verdict, policy);
      // A row the screen rejects (or the policy refuses) is not filed; a quarantined one is, with its verdict.
      if (action === "refuse" || (verdict.verdict === "reject" && policy !== "off")) {
        counts.rejected++;
        continue;
      }
      if (verdict.verdict === "quarantine" && policy !== "off") counts.quarantined++;
      plans.push({ row, verdict });
    }
    await insertDomain(tx, o.domain, now);
    const ids: number[] = [];
    for (const { row, verdict } of plans) {
      const scored = scoreProposal({ text: row.title ? `${row.title}\n${row.content}` : row.content, screen: verdict, origin: "imported" });
      const id = await insertProposal(tx, {
        kind: "memory", door: PARCEL_DOOR, title: row.title, content: row.content, contentHash: row.content_hash, domain: o.domain,
        ingestKind: row.labels.source, origin: "imported", source: `parcel:${o.sourceDomain}`.slice(0, 64),
        sourcePrompt: `Imported in parcel ${o.hash} signed by ${o.signer} from domain ${o.sourceDomain}`,
        score: scored.score, scoreBreakdown: { score: scored.score, components: scored.components },
        screen: { verdict: verdict.verdict, reasons: verdict.reasons, score: verdict.score }, createdAt: now,
      });
      await setProposalCarried(tx, id, { parcel_hash: o.hash, signer: o.signer, labels: row.labels, edges: row.edges, created_at: row.created_at });
      await d.audit.append(tx, {
        action: "propose", actor: o.reviewer, target: `proposal:${id}`,
        detail: { proposal_id: id, door: PARCEL_DOOR, domain: o.domain, content_hash: row.content_hash, score: scored.score, verdict: verdict.verdict },
      });
      ids.push(id);
    }
    counts.filed = ids.length;
    const ledgerId = await insertLedgerRow(tx, {
      direction: "in", parcelHash: o.hash, signer: o.signer, domain: o.domain, sourceDomain: o.sourceDomain, rowCount: o.rows.length,
      reviewer: o.reviewer, counts, createdAt: now,
    });
    // SPEC §6: parcel import writes a hash-chained audit row, in the ledger row's transaction (§4.10).
    await d.audit.append(tx, {
      action: "parcel_import", actor: o.reviewer, target: `parcel:${o.hash}`,
      detail: { ledger_id: ledgerId, parcel_hash: o.hash, signer: o.signer, domain: o.domain, source_domain: o.sourceDomain, ...counts },
    });
    return {
      parcel_hash: o.hash, signer: o.signer, source_domain: o.sourceDomain, domain: o.domain, received: counts.received,
      duplicate: counts.duplicate, screened: { quarantined: counts.quarantined, rejected: counts.rejected }, filed: counts.filed,
      proposal_ids: ids, ledger_id: ledgerId,
    };
  });
}
