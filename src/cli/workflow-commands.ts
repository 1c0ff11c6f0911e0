/**
 * `cairn workflow note <run> <text> [--reask]` (SPEC §4.12): adds an
 * audited operator note to a governed run; with `--reask` it also records a
 * re-ask (`case/reask`, source `operator`). Same service as
 * `POST /workflow/runs/{id}/notes`.
 */
import type { Memory } from "../memory.ts";
import { parseRunId } from "../workflow/deps.ts";
import type { CommandOutcome } from "./governance-commands.ts";

/** `cairn workflow note`. */
export async function workflowNoteCommand(memory: Memory, run: string, text: string, o: { reask?: boolean; json?: boolean } = {}): Promise<CommandOutcome> {
  const out = await memory.workflow.note(parseRunId(run), text, { reask: o.reask === true, actor: "cli-operator" });
  if (o.json) return { ok: true, lines: [JSON.stringify(out)] };
  return { ok: true, lines: out.events.map((e) => `run ${out.run_id}: ${e.type} (event ${e.event_id}, audit row ${e.audit_id})`) };
}
