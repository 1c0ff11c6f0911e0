#!/usr/bin/env -S node --max-semi-space-size=4
// npm `bin` entry. Node 20 cannot run TypeScript itself: run the compiled dist/ when `npm run build`
// (or `npm run serve`, through bin/build-if-stale.mjs) is newer than every source file, else register tsx
// and load cli.ts. The compiled path starts faster and holds ~50 MB less resident memory (README "Recall").
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { compiledIsFresh, root } from "./fresh.mjs";

if (process.env.CAIRN_RUN_SOURCE !== "1" && compiledIsFresh()) {
  await import(pathToFileURL(join(root, "dist", "cli.js")).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../cli.ts");
}
