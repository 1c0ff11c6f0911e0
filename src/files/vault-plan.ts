/**
 * The pure planner of `cairn reconcile <path> --kind vault` (STYLE rule 9,
 * after basic-memory's change planning): given what is on disk, what the
 * store last read or wrote (file sources) and the state of the UMP records
 * written back into the vault, it lists what changed and what to do. No I/O.
 *
 * Notes (`*.md`) flow vault → store: new and modified files are ingested,
 * a file at a new path with the content of a source whose path vanished is
 * a move (matched by hash), and a vanished file is a deletion (its chunks
 * are tombstoned by the orphan sweep).
 *
 * Record files (`*.ump.md`, one UMP record each) flow both ways: a live
 * record of the vault's project with no file is written into the vault; a
 * record revised in the store rewrites its file and a record forgotten in
 * the store removes it, but only when the file is unchanged since it was
 * written or read (otherwise it is a conflict and nothing is touched); an
 * edited record file revises the record; a deleted one forgets it; a new
 * one (dropped in by hand) is imported.
 */

/** A file on disk. */
export interface DiskEntry {
  path: string;
  hash: string;
}

/** What the store recorded about a path. */
export interface SourceEntry {
  id: number;
  path: string;
  hash: string;
  recordId?: string;
}

/** The store state of a written-back record (following its lineage to the current version). */
export interface RecordHead {
  /** The current version's id; undefined when the record was forgotten or erased. */
  current?: string;
}

/** A live record of the vault's project with no file yet, and the path chosen for it. */
export interface Outbound {
  id: string;
  path: string;
}

/** One step of the plan. */
export type VaultAction =
  | { op: "ingest"; path: string; hash: string; reason: "new" | "modified" }
  | { op: "import"; path: string; hash: string }
  | { op: "move"; source: SourceEntry; to: string }
  | { op: "delete"; source: SourceEntry }
  | { op: "revise"; source: SourceEntry; hash: string }
  | { op: "forget"; source: SourceEntry }
  | { op: "write"; path: string; recordId: string; source?: SourceEntry; expectHash: string | null }
  | { op: "remove"; source: SourceEntry }
  | { op: "conflict"; path: string; reason: string };

/** The plan and its counts. */
export interface VaultPlan {
  new: number;
  modified: number;
  moved: number;
  deleted: number;
  unchanged: number;
  written: number;
  conflicts: number;
  actions: VaultAction[];
}

/** True for a UMP record file. */
export const isRecordFile = (path: string) => path.toLowerCase().endsWith(".ump.md");

/** Plans one reconcile. */
export function planVault(input: {
  disk: readonly DiskEntry[];
  sources: readonly SourceEntry[];
  heads: ReadonlyMap<string, RecordHead>;
  outbound: readonly Outbound[];
}): VaultPlan {
  const plan: VaultPlan = { new: 0, modified: 0, moved: 0, deleted: 0, unchanged: 0, written: 0, conflicts: 0, actions: [] };
  const push = (a: VaultAction) => {
    plan.actions.push(a);
    if (a.op === "conflict") plan.conflicts++;
    if (a.op === "write" || a.op === "remove") plan.written++;
  };
  const disk = new Map(input.disk.map((f) => [f.path, f]));
  const byPath = new Map(input.sources.map((s) => [s.path, s]));
  const appeared = input.disk.filter((f) => !byPath.has(f.path));
  const vanished = input.sources.filter((s) => !disk.has(s.path));

  for (const s of input.sources) {
    const f = disk.get(s.path);
    if (!f) continue;
    const head = s.recordId !== undefined ? input.heads.get(s.recordId) ?? {} : undefined;
    if (f.hash === s.hash) {
      if (!head || head.current === s.recordId) plan.unchanged++;
      else if (head.current === undefined) push({ op: "remove", source: s });
      else push({ op: "write", path: s.path, recordId: head.current, source: s, expectHash: s.hash });
      continue;
    }
    plan.modified++;
    if (!head) push({ op: "ingest", path: f.path, hash: f.hash, reason: "modified" });
    else if (head.current === s.recordId) push({ op: "revise", source: s, hash: f.hash });
    else push({ op: "conflict", path: s.path, reason: "changed on disk and in the store since the last reconcile" });
  }

  // Moves: a new path whose content equals a vanished source (first match by path order).
  const moved = new Set<number>();
  const newcomers: DiskEntry[] = [];
  for (const f of [...appeared].sort((a, b) => cmp(a.path, b.path))) {
    const from = vanished.find((s) => !moved.has(s.id) && s.hash === f.hash && isRecordFile(s.path) === isRecordFile(f.path));
    if (from) {
      moved.add(from.id);
      plan.moved++;
      push({ op: "move", source: from, to: f.path });
    } else newcomers.push(f);
  }
  for (const f of newcomers) {
    plan.new++;
    push(isRecordFile(f.path) ? { op: "import", path: f.path, hash: f.hash } : { op: "ingest", path: f.path, hash: f.hash, reason: "new" });
  }
  for (const s of vanished) {
    if (moved.has(s.id)) continue;
    plan.deleted++;
    const head = s.recordId !== undefined ? input.heads.get(s.recordId) : undefined;
    push(head?.current !== undefined ? { op: "forget", source: s } : { op: "delete", source: s });
  }
  for (const o of input.outbound) {
    if (disk.has(o.path) || byPath.has(o.path)) push({ op: "conflict", path: o.path, reason: "a file already exists where the record would be written" });
    else push({ op: "write", path: o.path, recordId: o.id, expectHash: null });
  }
  return plan;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
