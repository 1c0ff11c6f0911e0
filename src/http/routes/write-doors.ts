/** Raw-memory write doors and quarantine review (SPEC §4.2, §4.4). */
import type { Hono } from "hono";
import type { Memory } from "../../memory.ts";
import { parseChunkId } from "../../lifecycle/delete-memory.ts";
import { piiReadOf } from "../principal.ts";
import { readJson } from "../read-json.ts";

/** Registers `/ingest/memory`, `/add` and the quarantine routes. */
export function writeDoorRoutes(app: Hono, memory: Memory): void {
  app.post("/ingest/markdown", async (c) => c.json(await memory.ingestMarkdown(await readJson(c))));
  app.post("/ingest/memory", async (c) => c.json(await memory.ingestMemory(await readJson(c))));
  app.post("/add", async (c) => c.json(await memory.add(await readJson(c))));
  app.get("/quarantine", async (c) => {
    const after = Number(c.req.query("after") ?? 0);
    const limit = Number(c.req.query("limit") ?? 100);
    return c.json(await memory.quarantine.list({
      after: Number.isSafeInteger(after) && after >= 0 ? after : 0,
      limit: Number.isSafeInteger(limit) ? limit : 100,
      piiRead: piiReadOf(c),
    }));
  });
  app.post("/quarantine/:id/release", async (c) => c.json(await memory.quarantine.release(parseChunkId(c.req.param("id")))));
  app.delete("/quarantine/:id", async (c) => c.json(await memory.quarantine.remove(parseChunkId(c.req.param("id")))));
}
