// Locates the shared, read-only test vectors (../shared/data/vectors from the repo root).
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Absolute path of the shared vectors folder. */
export const VECTORS_DIR = fileURLToPath(new URL("../../../shared/data/vectors/", import.meta.url));

/** True when the named vector file exists; otherwise logs why dependent tests are skipped. */
export function hasVector(name: string): boolean {
  const ok = existsSync(VECTORS_DIR + name);
  if (!ok) console.warn(`[skip] test vector ${name} not found under ${VECTORS_DIR}; interop vector tests are skipped`);
  return ok;
}

/** Reads a vector file as text. */
export function readVector(name: string): string {
  return readFileSync(VECTORS_DIR + name, "utf8");
}
