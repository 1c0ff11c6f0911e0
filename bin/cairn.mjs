#!/usr/bin/env -S node --max-semi-space-size=4
// npm `bin` entry. An installed package (no cli.ts beside bin/) runs the compiled dist/ only, so consumers never
// need tsx. In this repository, run dist/ when `npm run build` (or `npm run serve`, through bin/build-if-stale.mjs)
// is newer than every source file, else register tsx (a devDependency) and load cli.ts. The compiled path starts
// faster and holds ~50 MB less resident memory (docs/benchmarks.md).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { compiledIsFresh, root } from "./fresh.mjs";

const installed = !existsSync(join(root, "cli.ts"));
if (installed || (process.env.CAIRN_RUN_SOURCE !== "1" && compiledIsFresh())) {
  await import(pathToFileURL(join(root, "dist", "cli.js")).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../cli.ts");
}
