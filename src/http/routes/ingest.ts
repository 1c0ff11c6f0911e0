/** Structured ingest (SPEC §4.2). */
import type { Hono } from "hono";
import type { Memory } from "../../memory.ts";
import { readJson } from "../read-json.ts";
import { umpIngest } from "./ump-files.ts";

/** Registers `POST /ingest` and `POST /ingest/batch`. */
export function ingestRoutes(app: Hono, memory: Memory): void {
  // `?format=ump|ump-md` is the UMP file binding (SPEC §4.2); without it, the structured write.
  app.post("/ingest", async (c) => (await umpIngest(c, memory)) ?? c.json(await memory.ingest(await readJson(c))));
  // This project's bulk door: many structured bodies, one transaction (see src/ingest/ingest-batch.ts).
  app.post("/ingest/batch", async (c) => c.json(await memory.ingestBatch(await readJson(c))));
}
