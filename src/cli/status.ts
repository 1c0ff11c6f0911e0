/**
 * `cairn status` (SPEC §4.12): store health, capacity, durability and counts,
 * including the knowledge graph's entity and relation totals (issue 22
 * item 6; the totals of the `global` domain listing entry, SPEC §2.5).
 */
import type { Memory } from "../memory.ts";

/** The printable status lines (one JSON document with `json`). */
export async function statusLines(memory: Memory, json: boolean): Promise<string[]> {
  const h = await memory.healthDb();
  const domains = await memory.domains.list();
  // SPEC §2.5: with SVC_MULTI_DB off every entry carries the global totals; in multi-database mode they are per domain.
  const multi = domains.some((d) => d.multi_db);
  const sum = (k: "entities" | "relations") => (multi ? domains.reduce((a, d) => a + d[k], 0) : domains[0]?.[k] ?? 0);
  const graph = { entities: sum("entities"), relations: sum("relations") };
  if (json) return [JSON.stringify({ ...h, graph }, null, 2)];
  const cap = h.capacity as Record<string, unknown>;
  const dur = h.durability as Record<string, unknown>;
  return [
    `status ${h.status}  version ${h.version}  schema ${h.schema_stamp}`,
    `docs ${cap.docs}/${cap.max_docs}  db ${cap.db_mib}/${cap.max_db_mib} MiB  rss ${cap.rss_mib}/${cap.max_rss_mib} MiB  capacity ${cap.status}`,
    `graph: entities ${graph.entities}  relations ${graph.relations}`,
    `journal ${dur.journal_mode}  synchronous ${dur.synchronous ?? "-"}  durability ${h.durability_setting}  backend ${dur.backend}`,
    // SPEC §3: the shutdown stamp; an unclean last shutdown points the operator at the morning check.
    shutdownLine(h.shutdown as { last_shutdown: string; server_running: boolean; pid?: number } | undefined),
  ];
}

function shutdownLine(sd: { last_shutdown: string; server_running: boolean; pid?: number } | undefined): string {
  if (!sd) return "last shutdown unknown";
  const running = sd.server_running ? `  server running (pid ${sd.pid})` : "";
  return `last shutdown ${sd.last_shutdown}${running}${sd.last_shutdown === "unclean" ? "  — run `cairn check-consistency`" : ""}`;
}
