/**
 * The one failure of the opt-in model loaders: a model directory that is
 * missing a file, or holds a file that cannot be parsed. Boot turns it into a
 * refusal with this message (STYLE rule 4), so messages name the file and the
 * problem but never a full path (STYLE rule 7).
 */
import { MemoryError } from "../core/errors.ts";

/** Error code thrown by every model loader when its files are absent or malformed. */
export const EMBED_MODEL_INVALID = "embed_model_invalid";

/** Builds the `embed_model_invalid` MemoryError with a clear message. */
export function modelInvalid(message: string, details?: Record<string, unknown>): MemoryError {
  return new MemoryError(EMBED_MODEL_INVALID, message, details);
}
