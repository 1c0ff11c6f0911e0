#!/usr/bin/env -S node --max-semi-space-size=4
// npm `bin` entry. Node 20 cannot run TypeScript itself: run the compiled dist/ when `npm run build`
// (run by `npm ci` through `prepare`) is newer than every source file, else register tsx and load
// cli.ts. The compiled path starts faster and holds ~50 MB less resident memory (README "Recall").
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const stamp = join(root, "dist", ".built");

function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (e.name.endsWith(".ts")) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

function compiledIsFresh() {
  if (process.env.CAIRN_RUN_SOURCE === "1" || !existsSync(stamp)) return false;
  const built = statSync(stamp).mtimeMs;
  return [join(root, "cli.ts"), join(root, "mod.ts")].every((f) => statSync(f).mtimeMs <= built) && newestSource(join(root, "src")) <= built;
}

if (compiledIsFresh()) {
  await import(pathToFileURL(join(root, "dist", "cli.js")).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../cli.ts");
}
