/** Reads a JSON request body; malformed JSON is a 400 with an envelope (never a 500). */
import type { Context } from "hono";
import { MemoryError } from "../core/errors.ts";

/** Parses the request body as JSON, or throws `invalid_json`. */
export async function readJson(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text.trim() === "") throw new MemoryError("invalid_json", "request body must be JSON");
  try {
    return JSON.parse(text);
  } catch {
    throw new MemoryError("invalid_json", "request body is not valid JSON");
  }
}
