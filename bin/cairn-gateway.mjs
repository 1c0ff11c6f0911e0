#!/usr/bin/env node
// npm `bin` entry of the messaging gateway (SPEC §4.13): a separate process that talks to Cairn only over HTTP.
// Like bin/cairn.mjs: an installed package (no gateway.ts beside bin/) runs the compiled dist/gateway.js, so
// consumers never need tsx; in this repository dist/ runs when it is newer than every source (`npm run build`),
// else tsx (a devDependency) loads gateway.ts. CAIRN_RUN_SOURCE=1 forces the sources.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { compiledIsFresh, root } from "./fresh.mjs";

const installed = !existsSync(join(root, "gateway.ts"));
if (installed || (process.env.CAIRN_RUN_SOURCE !== "1" && compiledIsFresh())) {
  await import(pathToFileURL(join(root, "dist", "gateway.js")).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../gateway.ts");
}
