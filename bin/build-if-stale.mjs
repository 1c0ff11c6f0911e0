// `npm run serve` runs this first: compiles dist/ (tsc, ~15 s) when it is missing or older than a source file.
// `npm ci` does not (the package has no install-time script, so installing it asks nobody to approve one), and the
// compiled build boots faster and holds ~50 MB less resident memory than the sources under tsx (docs/benchmarks.md).
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { compiledIsFresh, root, stamp } from "./fresh.mjs";

if (!compiledIsFresh()) {
  process.stderr.write("cairn: compiling dist/ (once per source change) ...\n");
  const tsc = createRequire(join(root, "package.json")).resolve("typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json")], { cwd: root, stdio: "inherit" });
  if (r.status !== 0) {
    // Not fatal: the bin then runs the sources through tsx.
    process.stderr.write("cairn: compiling dist/ failed; serving from the TypeScript sources\n");
  } else writeFileSync(stamp, new Date().toISOString());
}
