/**
 * File I/O of `cairn kb build` (SPEC §4.12): reads Orama's browser build
 * from node_modules (copied into the site so it needs no network), and
 * writes a planned site into a directory. A directory is only written when
 * it is empty or holds a previous build (its `.cairn-kb-files` list); files
 * of the previous build that the new plan lacks are removed, so a rebuild
 * equals a fresh build.
 */
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { MemoryError } from "../core/errors.ts";
import { packageRoot } from "./platform.ts";

const MANIFEST = ".cairn-kb-files";

/** Where Orama's browser build lives: beside the entry the module resolver finds (hoisted installs), else under the repo. */
function oramaBrowserDir(): string {
  try {
    const entry = import.meta.resolve("@orama/orama");
    if (entry.startsWith("file:")) {
      const m = /^(.*\/dist\/)[^/]+\/index\.js$/.exec(fileURLToPath(entry));
      if (m) return `${m[1]}browser`;
    }
  } catch {
    // fall through: resolution unsupported here
  }
  return join(packageRoot(), "node_modules", "@orama", "orama", "dist", "browser");
}

/** Orama's browser ESM build (every .js file, source-map comments dropped), by path relative to its dist/browser/. */
export async function readOramaBrowserBuild(): Promise<Map<string, string>> {
  const dir = oramaBrowserDir();
  const out = new Map<string, string>();
  const visit = async (d: string, rel: string): Promise<void> => {
    const entries = (await readdir(d, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const e of entries) {
      if (e.isDirectory()) await visit(join(d, e.name), `${rel}${e.name}/`);
      else if (e.name.endsWith(".js")) out.set(`${rel}${e.name}`, (await readFile(join(d, e.name), "utf8")).replace(/\n\/\/# sourceMappingURL=.*$/gm, ""));
    }
  };
  await visit(dir, "");
  return out;
}

/** Writes `files` under `outDir` (see the module comment for what an existing directory may hold). */
export async function writeSiteFiles(outDir: string, files: Map<string, string>): Promise<void> {
  let existing: string[] = [];
  try {
    existing = await readdir(outDir);
  } catch {
    // absent: created below
  }
  let previous: string[] = [];
  if (existing.length > 0) {
    const list = await readFile(join(outDir, MANIFEST), "utf8").catch(() => undefined);
    if (list === undefined) throw new MemoryError("invalid_request", "--out must be an empty directory or a previous kb build", { field: "out" });
    previous = list.split("\n").filter((l) => l !== "");
  }
  for (const p of previous) if (!files.has(p) && !p.split("/").includes("..")) await rm(join(outDir, p), { force: true });
  const made = new Set<string>();
  for (const [p, text] of files) {
    const target = join(outDir, p);
    const parent = dirname(target);
    if (!made.has(parent)) {
      await mkdir(parent, { recursive: true });
      made.add(parent);
    }
    await writeFile(target, text);
  }
  await writeFile(join(outDir, MANIFEST), [...files.keys()].join("\n") + "\n");
}
