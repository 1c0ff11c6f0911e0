/** Memory entry routes (SPEC §4.4). */
import type { Hono } from "hono";
import type { Memory } from "../../memory.ts";

/** Registers `DELETE /memory/{id}`. */
export function memoryRoutes(app: Hono, memory: Memory): void {
  app.delete("/memory/:id", async (c) => c.json(await memory.deleteMemory(c.req.param("id"))));
}
