/**
 * The executor of `cairn reconcile <path> --kind vault` (SPEC §4.12): scans
 * the vault, asks the pure planner (`vault-plan.ts`) what changed, then
 * applies it through the same services as HTTP: notes through the markdown
 * door (`vault`), record files through UMP import / revise / forget, moves
 * and deletions on the file sources, then the orphan sweep
 * (`POST /sources/reconcile`). Every step is audited by the service it
 * calls. Files are written atomically (temp file, then rename) and only when
 * the file on disk still has the content the plan saw; a file changed since
 * it was read is reported as a conflict and never overwritten. A second run
 * right after the first finds nothing to do.
 */
import type { Memory } from "../memory.ts";
import { absolutePath, ensureParentDir, readTextIfExists, removeFile, writeFileAtomic } from "../runtime/platform.ts";
import type { UmpActor } from "../ump/actor.ts";
import { parseUmpMarkdown, serialiseUmpMarkdown } from "../ump/file-projection.ts";
import { type ScanCache, scanVault } from "./vault-scan.ts";
import { type DiskEntry, isRecordFile, type Outbound, planVault, type RecordHead, type SourceEntry, type VaultAction, type VaultPlan } from "./vault-plan.ts";

/** Options of one reconcile. */
export interface VaultOptions {
  /** Who acts (the CLI is the local operator). */
  actor: UmpActor;
  /** The project whose UMP records are written into the vault; default: the vault directory's name. */
  project?: string;
  /** Folder (inside the vault) for written-back records; default `cairn`. */
  recordDir?: string;
  /** Two-way (default); false reads the vault only. */
  writeBack?: boolean;
  /** Plan only, change nothing. */
  dryRun?: boolean;
  /** Called after each applied step. */
  onStep?: (a: VaultAction, done: number, total: number) => void;
  /** Called once the plan is made, before any step. */
  onPlan?: (plan: VaultPlan) => void;
  /** The watch's file cache (`vault-scan.ts`): only changed or event-named files are read again. */
  cache?: ScanCache;
  /** Root-relative paths an event named since the last run. */
  dirty?: ReadonlySet<string>;
}

/** What one reconcile did. */
export interface VaultReport {
  root: string;
  plan: Omit<VaultPlan, "actions">;
  applied: number;
  swept: number;
  conflicts: { path: string; reason: string }[];
  failed: { path: string; error: string }[];
  /** Files that changed or vanished between the scan and their step: untouched; the next run (or batch) takes them. */
  retry: { path: string; reason: string }[];
}

/** A file that changed or vanished after the scan read it (not a failure: the next run sees it as it is then). */
class Moved extends Error {}

/** Reconciles a vault directory with the store. */
export async function reconcileVault(memory: Memory, dir: string, o: VaultOptions): Promise<VaultReport> {
  const root = await absolutePath(dir);
  const disk: DiskEntry[] = await scanVault(root, (t) => memory.sources.hashOf(t), { cache: o.cache, dirty: o.dirty });
  const sources: SourceEntry[] = (await memory.sources.list("vault", root)).filter((s) => s.state === "active")
    .map((s) => ({ id: s.id, path: s.path, hash: s.hash, ...(s.recordId !== undefined ? { recordId: s.recordId } : {}) }));
  const heads = new Map<string, RecordHead>();
  for (const s of sources) if (s.recordId !== undefined) heads.set(s.recordId, { current: await memory.ump.headOf(s.recordId) });
  const outbound: Outbound[] = [];
  if (o.writeBack !== false) {
    const linked = new Set([...heads.values()].map((h) => h.current).filter((x) => x !== undefined));
    const taken = new Set([...disk.map((f) => f.path), ...sources.map((s) => s.path)]);
    const project = o.project ?? root.split("/").pop() ?? "";
    for (const id of memory.ump.liveIdsOfProject(project)) {
      if (linked.has(id)) continue;
      const record = await memory.ump.storedRecord(o.actor, id).catch(() => undefined);
      if (!record) continue;
      const path = uniquePath(`${o.recordDir ?? "cairn"}/${slug(record.title ?? record.body.text)}-${id.slice(-8)}.ump.md`, taken);
      taken.add(path);
      outbound.push({ id, path });
    }
  }
  const plan = planVault({ disk, sources, heads, outbound });
  const { actions, ...counts } = plan;
  const report: VaultReport = { root, plan: counts, applied: 0, swept: 0, conflicts: [], failed: [], retry: [] };
  o.onPlan?.(plan);
  if (o.dryRun) {
    for (const a of actions) if (a.op === "conflict") report.conflicts.push({ path: a.path, reason: a.reason });
    return report;
  }
  const hashes = new Map(disk.map((f) => [f.path, f.hash]));
  let done = 0;
  for (const a of actions) {
    try {
      await apply(memory, root, a, o.actor, hashes, report);
    } catch (e) {
      if (e instanceof Moved) report.retry.push({ path: pathOf(a), reason: e.message });
      else report.failed.push({ path: pathOf(a), error: (e as Error).message });
    }
    o.onStep?.(a, ++done, actions.length);
  }
  report.swept = (await memory.sources.reconcile()).swept.length;
  return report;
}

async function apply(memory: Memory, root: string, a: VaultAction, actor: UmpActor, hashes: Map<string, string>, report: VaultReport): Promise<void> {
  const abs = (p: string) => `${root}/${p}`;
  // Reads a file and insists it is still what the plan saw.
  const readSeen = async (path: string): Promise<string> => {
    const text = await readTextIfExists(abs(path));
    if (text === undefined) throw new Moved("The file vanished while reconciling");
    if ((await memory.sources.hashOf(text)) !== hashes.get(path)) throw new Moved("The file changed while reconciling");
    return text;
  };
  const writeGuarded = async (path: string, content: string, expect: string | null): Promise<boolean> => {
    const now = await readTextIfExists(abs(path));
    const nowHash = now === undefined ? null : await memory.sources.hashOf(now);
    if (nowHash !== expect) {
      report.conflicts.push({ path, reason: "changed on disk since it was read; not overwritten" });
      return false;
    }
    await ensureParentDir(abs(path));
    await writeFileAtomic(abs(path), content);
    return true;
  };
  switch (a.op) {
    case "ingest":
      await memory.sources.ingestFile({ kind: "vault", root, path: a.path, content: await readSeen(a.path) });
      break;
    case "import": {
      const content = await readSeen(a.path);
      const out = await memory.ump.importRecords(actor, parseUmpMarkdown(content), { source: "vault" });
      const first = out.results.find((r) => r.result !== "rejected");
      if (!first?.id) throw new Error(out.results[0] && "error" in out.results[0] ? out.results[0].error!.message : "No record in the file");
      await memory.sources.linkRecordFile({ kind: "vault", root, path: a.path, content, recordId: first.id });
      break;
    }
    case "move":
      await memory.sources.moveFile(toSource(a.source, root), a.to);
      // A note's chunks name its path (evidence `source_link`) and may take their title from the file name: the
      // moved note is read again, and the chunks whose labels changed are replaced.
      if (!isRecordFile(a.to)) await memory.sources.ingestFile({ kind: "vault", root, path: a.to, content: await readSeen(a.to) });
      break;
    case "delete":
      await memory.sources.deleteFile(toSource(a.source, root));
      break;
    case "forget": {
      const head = await memory.ump.headOf(a.source.recordId!);
      if (head) await memory.ump.forget(actor, { id: head, reason: "vault file deleted" });
      await memory.sources.deleteFile(toSource(a.source, root));
      break;
    }
    case "revise": {
      const content = await readSeen(a.source.path);
      const edited = parseUmpMarkdown(content)[0];
      const current = await memory.ump.storedRecord(actor, a.source.recordId!);
      const patch: Record<string, unknown> = {};
      if (edited?.body && (edited.body as { text?: unknown }).text !== current.body.text) patch.body = { text: (edited.body as { text: string }).text };
      if (edited && edited.title !== current.title && typeof edited.title === "string") patch.title = edited.title;
      let recordId = current.id;
      if (Object.keys(patch).length) recordId = (await memory.ump.revise(actor, { id: current.id, patch })).id;
      // Rewrite the file so its front matter names the new version (guarded by the content just read).
      const fresh = serialiseUmpMarkdown([await memory.ump.storedRecord(actor, recordId)]);
      const wrote = recordId !== current.id && await writeGuarded(a.source.path, fresh, a.hash);
      await memory.sources.linkRecordFile({ kind: "vault", root, path: a.source.path, content: wrote ? fresh : content, recordId });
      break;
    }
    case "write": {
      const content = serialiseUmpMarkdown([await memory.ump.storedRecord(actor, a.recordId)]);
      if (await writeGuarded(a.path, content, a.expectHash)) {
        await memory.sources.linkRecordFile({ kind: "vault", root, path: a.path, content, recordId: a.recordId });
      }
      break;
    }
    case "remove": {
      const now = await readTextIfExists(abs(a.source.path));
      if (now !== undefined && (await memory.sources.hashOf(now)) !== a.source.hash) {
        report.conflicts.push({ path: a.source.path, reason: "changed on disk since it was written; not removed" });
        return;
      }
      await removeFile(abs(a.source.path));
      await memory.sources.deleteFile(toSource(a.source, root));
      break;
    }
    case "conflict":
      report.conflicts.push({ path: a.path, reason: a.reason });
      return;
  }
  report.applied++;
}

function toSource(s: SourceEntry, root: string) {
  return { id: s.id, kind: "vault", root, path: s.path, hash: s.hash, state: "active" as const, updatedAt: "" };
}

function pathOf(a: VaultAction): string {
  return "path" in a ? a.path : a.source.path;
}

/** A file-name slug of a title or text: lowercase words joined by `-`, at most 48 characters. */
export function slug(text: string): string {
  const s = text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return s.slice(0, 48).replace(/-+$/, "") || "record";
}

function uniquePath(path: string, taken: ReadonlySet<string>): string {
  if (!taken.has(path)) return path;
  for (let n = 2; ; n++) {
    const p = path.replace(/\.ump\.md$/, `-${n}.ump.md`);
    if (!taken.has(p)) return p;
  }
}

export { isRecordFile };
