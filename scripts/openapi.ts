/**
 * Writes `openapi.yaml`, the document generated from the route declarations
 * (issue 21), from an app over a throw-away store. `--check` exits 1 when the
 * committed file differs (CI and `test/http/openapi-doc.test.ts` keep them in step).
 *
 *   npm run openapi            # regenerate
 *   npm run openapi -- --check
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseConfig } from "../src/config/parse-config.ts";
import { createApp } from "../src/http/app.ts";
import { openMemory } from "../src/memory.ts";

/** The document the code declares, as served at `/openapi.yaml`. */
export async function generatedOpenApiYaml(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "cairn-openapi-"));
  const memory = await openMemory(parseConfig({ CAIRN_DB_PATH: join(dir, "cairn.db") }), { rssBytes: () => process.memoryUsage().rss });
  try {
    const res = await createApp(memory).request("/openapi.yaml", {}, { remoteAddr: "127.0.0.1" });
    if (res.status !== 200) throw new Error(`GET /openapi.yaml answered ${res.status}`);
    return await res.text();
  } finally {
    await memory.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("scripts/openapi.ts")) {
  const file = resolve(import.meta.dirname, "../openapi.yaml");
  const text = await generatedOpenApiYaml();
  if (process.argv.includes("--check")) {
    if (readFileSync(file, "utf8") !== text) {
      process.stderr.write("openapi.yaml is stale: run `npm run openapi`\n");
      process.exit(1);
    }
    process.stdout.write("openapi.yaml is in step with the route declarations\n");
  } else {
    writeFileSync(file, text);
    process.stdout.write(`wrote ${file} (${text.length} bytes)\n`);
  }
}
