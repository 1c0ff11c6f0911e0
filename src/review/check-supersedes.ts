/**
 * The guard every new `supersedes` link passes (approval with
 * `?supersedes=`, `POST /consolidate`): both chunks are stored, they
 * differ, and the link closes no cycle of approved `supersedes` links
 * (A supersedes B supersedes A would hide both from current recall).
 */
import { MemoryError } from "../core/errors.ts";
import { getChunk } from "../store/chunks.ts";
import { approvedSupersededBy } from "../store/consolidation.ts";
import type { Exec } from "../store/db.ts";

/** Throws `not_found`, `invalid_request` or 409 `conflict` when `from` may not supersede `to`. */
export async function checkSupersedes(ex: Exec, from: number, to: number, field = "to"): Promise<void> {
  for (const id of [to, from]) if (!(await getChunk(ex, id))) throw new MemoryError("not_found", `memory ${id} not found`, { field });
  if (from === to) throw new MemoryError("invalid_request", "a chunk cannot supersede itself", { field });
  const seen = new Set<number>([to]);
  for (let frontier = [to]; frontier.length;) {
    const next: number[] = [];
    for (const id of frontier) {
      for (const n of await approvedSupersededBy(ex, id)) {
        if (n === from) throw new MemoryError("conflict", `memory ${to} already supersedes memory ${from}`, { field }, 409);
        if (!seen.has(n)) {
          seen.add(n);
          next.push(n);
        }
      }
    }
    frontier = next;
  }
}
