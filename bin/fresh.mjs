// Whether the compiled dist/ is newer than every TypeScript source (shared by bin/cairn.mjs and bin/build-if-stale.mjs).
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = join(dirname(fileURLToPath(import.meta.url)), "..");
export const stamp = join(root, "dist", ".built");

// Exported for test/runtime/fresh-build.test.ts.
export function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (e.name.endsWith(".ts") || e.name.endsWith(".tsx")) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

export function compiledIsFresh() {
  if (!existsSync(stamp)) return false;
  const built = statSync(stamp).mtimeMs;
  return [join(root, "cli.ts"), join(root, "mod.ts"), join(root, "gateway.ts")].every((f) => statSync(f).mtimeMs <= built) && newestSource(join(root, "src")) <= built;
}
