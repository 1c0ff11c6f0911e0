/**
 * `cairn parcel export | import | ledger` (SPEC §4.12, §4.10): thin over
 * `memory.parcels`, acting as the local operator (the ledger's reviewer is
 * `local-operator`). A refusal is a `MemoryError`, which `cli.ts` prints as
 * one line (`cairn: <code>: <message>`) with a non-zero exit.
 */
import { MemoryError } from "../core/errors.ts";
import type { Memory } from "../memory.ts";
import { readTextFile, writeFileAtomic } from "../runtime/platform.ts";
import type { ParcelExportInput, ParcelImportInput } from "../parcel/parcel-schema.ts";
import type { CommandOutcome } from "./governance-commands.ts";

const CALLER = { reviewer: "local-operator" };

/**
 * The codes of a parcel refused before anything is written (SPEC §4.10, §7: signer missing, wrong or aliased, a bad
 * signature, not a parcel, too large). The CLI exits 2 on these, as on any input it refuses (docs/cli.md).
 */
export const PARCEL_REFUSALS: ReadonlySet<string> = new Set([
  "signer_required", "signer_mismatch", "signer_alias", "signature_invalid", "parcel_invalid", "parcel_too_large",
]);

/** `cairn parcel export --domain d [--since ts] --out file`. */
export async function parcelExportCommand(memory: Memory, o: { domain?: string; since?: string; out?: string; json?: boolean }): Promise<CommandOutcome> {
  if (!o.out) throw new MemoryError("invalid_request", "--out <file> is required");
  // Flags are untrusted input: the service parses them with ParcelExportBody (domain_invalid when --domain is missing).
  const r = await memory.parcels.exportParcel({ domain: o.domain, ...(o.since !== undefined ? { since: o.since } : {}) } as ParcelExportInput, CALLER);
  await writeFileAtomic(o.out, JSON.stringify(r.parcel, null, 2) + "\n");
  const summary = { parcel_hash: r.parcel_hash, source_domain: r.source_domain, region: r.region, row_count: r.row_count, signed_by: r.parcel.signed_by, ledger_id: r.ledger_id, out: o.out };
  if (o.json) return { ok: true, lines: [JSON.stringify(summary)] };
  return { ok: true, lines: [
    `exported ${r.row_count} rows of ${r.source_domain} (region ${r.region}) to ${o.out}`,
    `parcel ${r.parcel_hash}`,
    `signed by ${r.parcel.signed_by}`,
  ] };
}

/** `cairn parcel import --file f --domain d --expected-signer did`. */
export async function parcelImportCommand(memory: Memory, o: { file?: string; domain?: string; expectedSigner?: string; json?: boolean }): Promise<CommandOutcome> {
  if (!o.file) throw new MemoryError("invalid_request", "--file <file> is required");
  let parcel: unknown;
  try {
    parcel = JSON.parse(await readTextFile(o.file));
  } catch {
    throw new MemoryError("parcel_invalid", "the parcel file is not readable JSON");
  }
  // The service parses with ParcelImportBody: signer_required without --expected-signer, parcel_invalid for a bad file.
  const r = await memory.parcels.importParcel({ expected_signer: o.expectedSigner, parcel, ...(o.domain !== undefined ? { domain: o.domain } : {}) } as ParcelImportInput, CALLER);
  if (o.json) return { ok: true, lines: [JSON.stringify(r)] };
  return { ok: true, lines: [
    `parcel ${r.parcel_hash} from ${r.signer} (domain ${r.source_domain}) into ${r.domain}`,
    `${r.received} received, ${r.duplicate} duplicate, ${r.screened.quarantined} quarantined, ${r.screened.rejected} rejected, ${r.filed} filed as pending proposals`,
    ...(r.filed ? ["review them: GET /proposals?status=pending, then POST /proposals/{id}/approve?digest=…"] : []),
  ] };
}

/** `cairn parcel ledger [--domain d]`: every ledger row, oldest first. */
export async function parcelLedgerCommand(memory: Memory, o: { domain?: string; json?: boolean }): Promise<CommandOutcome> {
  const rows = [];
  for (let cursor: string | undefined; ;) {
    const page = await memory.parcels.ledger({ domain: o.domain, cursor, limit: "500" });
    rows.push(...page.rows);
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  if (o.json) return { ok: true, lines: [JSON.stringify({ rows })] };
  if (rows.length === 0) return { ok: true, lines: ["no parcels yet"] };
  return { ok: true, lines: rows.map((r) => `${r.id}  ${r.created_at}  ${r.direction === "in" ? "in " : "out"}  ${r.domain}  ${r.row_count} rows  ${r.parcel_hash}  ${r.signer}  by ${r.reviewer}`) };
}
