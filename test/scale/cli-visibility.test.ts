/**
 * Issue 20, tried as a new user would: `cairn ingest-dir` while `cairn serve`
 * runs on the same file. Before the change feed the server counted the new
 * documents on /stats but `/recall` found them only after a restart.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cairn } from "../_helpers/cli.ts";
import { tempDir } from "../_helpers/memory.ts";
import { startServer, type ServerProc } from "./_procs.ts";

describe("a CLI write while the server runs on the same file", () => {
  const dir = tempDir("cairn-cli-vis-");
  let server: ServerProc | undefined;
  afterAll(async () => {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("ingest-dir's documents are recalled by the running server without a restart", async () => {
    const env = { CAIRN_DB_PATH: join(dir, "cairn.db") };
    server = await startServer(env);
    expect((await server.json("POST", "/recall", { query: "axolotl gills" })).body.hits).toEqual([]);
    const vault = join(dir, "vault");
    mkdirSync(vault);
    writeFileSync(join(vault, "axolotl.md"), "# Axolotl\n\nAxolotl gills are feathery and regrow after injury.\n");
    writeFileSync(join(vault, "quokka.md"), "# Quokka\n\nQuokkas live on Rottnest Island and rarely drink.\n");
    const r = await cairn(["ingest-dir", vault], env);
    expect(r.code).toBe(0);
    expect((await server.json("GET", "/stats")).body.docs).toBe(2);
    const hits = (await server.json("POST", "/recall", { query: "axolotl gills" })).body.hits as { title: string }[];
    expect(hits.map((h) => h.title)).toContain("Axolotl");
    const quokka = (await server.json("POST", "/recall", { query: "quokka island" })).body.hits as { title: string }[];
    expect(quokka.map((h) => h.title)).toContain("Quokka");
  }, 120_000);
});
