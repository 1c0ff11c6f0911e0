// Consumer install size (issue 21): the installed bytes of the packages a production install pulls
// (package-lock entries that are neither dev-only nor optional peers), measured on this checkout's node_modules.
//   node scripts/install-size.mjs [package-lock.json]
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

const lock = JSON.parse(readFileSync(process.argv[2] ?? "package-lock.json", "utf8"));
const root = process.argv[3] ?? "node_modules/..";
let bytes = 0;
let missing = 0;
const counted = [];
for (const [path, e] of Object.entries(lock.packages)) {
  if (path === "" || e.dev || e.devOptional || (e.peer && e.optional)) continue;
  const dir = join(root, path);
  if (!existsSync(dir)) { missing++; continue; }
  const kb = Number(execFileSync("du", ["-sk", "--exclude=node_modules", dir]).toString().split("\t")[0]);
  bytes += kb * 1024;
  counted.push([path, kb]);
}
counted.sort((a, b) => b[1] - a[1]);
console.log(`${(bytes / 1024 / 1024).toFixed(1)} MB in ${counted.length} packages (${missing} not present here)`);
for (const [p, kb] of counted.slice(0, 8)) console.log(`  ${(kb / 1024).toFixed(1)} MB ${p}`);
