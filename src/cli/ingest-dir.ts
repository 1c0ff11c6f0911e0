/**
 * `cairn ingest-dir <dir>` (SPEC §4.12): ingests a whole markdown vault
 * (front matter, wikilinks, nested folders) through the markdown door,
 * stamped `vault` (the same chunks, entities and edges as `/ingest/markdown`;
 * front matter is metadata, never chunk text), each file recorded as a
 * source so a later `cairn reconcile <dir> --kind vault` knows it. Title =
 * front matter `title`, else the first heading, else the file name. One bad
 * file is reported and counted, never fatal. A progress bar on a TTY.
 */
import { isMemoryError } from "../core/errors.ts";
import type { Memory } from "../memory.ts";
import { absolutePath, readTextFile, walkFiles } from "../runtime/platform.ts";
import { noteTitle } from "../sources/source-service.ts";
import { type CliOutput, createProgress, processOutput } from "./progress.ts";

/** Counts of one directory ingest. */
export interface IngestDirSummary {
  files: number;
  created: number;
  duplicate: number;
  failed: number;
}

/** Title of a markdown file (re-exported for callers of the old name). */
export function titleFor(path: string, content: string): string {
  return noteTitle(path, content);
}

/** Ingests a directory; never throws for one bad file (it is counted as failed and reported). */
export async function ingestDir(memory: Memory, dir: string, opts: { domain?: string } = {}, io: CliOutput = processOutput): Promise<IngestDirSummary> {
  const root = await absolutePath(dir);
  let files: string[];
  try {
    files = await walkFiles(root, [".md", ".markdown"]);
  } catch {
    // One line naming what the user typed, not a runtime errno dump.
    throw new Error(`ingest-dir: ${dir} is not a readable directory`);
  }
  const progress = createProgress(files.length, "ingest", io);
  const s: IngestDirSummary = { files: files.length, created: 0, duplicate: 0, failed: 0 };
  for (const f of files) {
    try {
      const content = await readTextFile(f);
      const r = await memory.sources.ingestFile({ kind: "vault", root, path: f.slice(root.length + 1), content, domain: opts.domain });
      if (r.created > 0) s.created++;
      else s.duplicate++;
    } catch (e) {
      s.failed++;
      // The same code the HTTP door answers (e.g. frontmatter_too_large), then the message.
      io.err(`${f}: ${isMemoryError(e) ? `${e.code}: ` : ""}${(e as Error).message}\n`);
    }
    progress.tick(f);
  }
  progress.done(`ingest-dir: ${s.files} files, ${s.created} created, ${s.duplicate} duplicate, ${s.failed} failed`);
  return s;
}
