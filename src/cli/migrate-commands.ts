/**
 * `cairn migrate multi-db` (issue 20, docs/scale-out.md "One database per domain"): the printable outcome of a move of a single-file
 * store's domains into one database each, then the `check-consistency` verdict over every database.
 */
import type { MigrationReport, MultiDbMigration } from "../domains/migrate-multi-db.ts";
import type { MoveCounts } from "../store/move-domain.ts";
import type { CommandOutcome } from "./governance-commands.ts";

const rowsLine = (r: MoveCounts) =>
  `${r.chunks} chunks, ${r.vectors} vectors, ${r.tombstones} tombstones, ${r.entities} entities, ${r.relations} relations, ${r.entity_chunks} entity-chunk links`;

/** Runs the move (or the dry run) and says what it did. */
export async function migrateMultiDbCommand(m: MultiDbMigration, o: { domain?: string; dryRun?: boolean; json?: boolean }): Promise<CommandOutcome> {
  const r: MigrationReport = await m.run({ domain: o.domain, dryRun: o.dryRun });
  const ok = r.consistency?.ok ?? true;
  if (o.json) return { ok, lines: [JSON.stringify(r)] };
  const lines = r.moved.map((s) => `${r.dry_run ? "would move" : "moved"} ${s.domain}: ${rowsLine(s.rows)}`);
  if (r.dry_run) {
    lines.push(`dry run: ${r.moved.length} domain(s) would move${r.remaining.length ? `, ${r.remaining.length} other(s) left` : ""}; nothing changed`);
    return { ok, lines };
  }
  lines.push(`migrate multi-db: ${r.moved.length} domain(s) moved in ${r.ms} ms; ${r.remaining.length ? `still in the single file: ${r.remaining.join(", ")}` : "none left in the single file"}`);
  for (const c of r.consistency?.checks ?? []) {
    lines.push(`${c.ok ? "ok  " : "FAIL"} ${c.name}${c.count ? ` (${c.count}${c.sample ? `: ${c.sample.join(", ")}` : ""})` : ""}${c.detail ? `  ${c.detail}` : ""}`);
  }
  lines.push(ok ? "consistent" : "INCONSISTENT");
  if (ok && r.remaining.length === 0) lines.push("boot with CAIRN_MULTI_DB=true from now on");
  return { ok, lines };
}
