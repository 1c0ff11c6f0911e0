/**
 * `cairn ingest-dir <dir>`: ingests every markdown file under a directory
 * through the markdown door (heading-aware chunks, the same service as
 * `POST /ingest/markdown`). Title = the file's first heading, else its name.
 */
import type { Memory } from "../memory.ts";
import { readTextFile, walkFiles } from "../runtime/platform.ts";
import { createProgress } from "./progress.ts";

/** Counts of one directory ingest. */
export interface IngestDirSummary {
  files: number;
  created: number;
  duplicate: number;
  failed: number;
}

/** Title of a markdown file: its first ATX heading, else its base name without extension. */
export function titleFor(path: string, content: string): string {
  const m = /^#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(content);
  if (m && m[1].trim()) return m[1].trim().slice(0, 500);
  const base = path.split("/").pop() ?? path;
  return base.replace(/\.(md|markdown)$/i, "") || base;
}

/** Ingests a directory; never throws for one bad file (it is counted as failed and reported). */
export async function ingestDir(memory: Memory, dir: string, opts: { domain?: string } = {}): Promise<IngestDirSummary> {
  const files = await walkFiles(dir, [".md", ".markdown"]);
  const progress = createProgress(files.length, "ingest");
  const s: IngestDirSummary = { files: files.length, created: 0, duplicate: 0, failed: 0 };
  for (const f of files) {
    try {
      const content = await readTextFile(f);
      const body: Record<string, unknown> = { title: titleFor(f, content), content };
      if (opts.domain) body.domain = opts.domain;
      const r = await memory.ingestMarkdown(body, { sourceLink: f.slice(dir.replace(/\/$/, "").length + 1) });
      if (r.status === "created") s.created++;
      else s.duplicate++;
    } catch (e) {
      s.failed++;
      console.error(`${f}: ${(e as Error).message}`);
    }
    progress.tick(f);
  }
  progress.done(`ingest-dir: ${s.files} files, ${s.created} created, ${s.duplicate} duplicate, ${s.failed} failed`);
  return s;
}
