/** Structured ingest (SPEC §4.2). */
import type { Hono } from "hono";
import type { Memory } from "../../memory.ts";
import { readJson } from "../read-json.ts";

/** Registers `POST /ingest`. */
export function ingestRoutes(app: Hono, memory: Memory): void {
  app.post("/ingest", async (c) => c.json(await memory.ingest(await readJson(c))));
}
