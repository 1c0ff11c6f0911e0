/**
 * Posture warnings a running server keeps for `/health/db` (`warnings`): a configured part that failed open at boot
 * (the rerank model, SPEC §1 step 5) or a sharp default in use (a roleless token admitted to an admin route, SPEC §5
 * item 3). Each code is listed once, with the first message; the list only grows while the process runs.
 */

/** One warning as `/health/db` shows it. */
export interface PostureWarning {
  code: string;
  message: string;
}

/** The process's warning list. */
export interface PostureWarnings {
  /** Records a warning; true the first time its code is seen (the caller logs it then). */
  add(code: string, message: string): boolean;
  /** The warnings so far, oldest first. */
  list(): PostureWarning[];
}

/** A warning list seeded with boot-time warnings. */
export function createPostureWarnings(initial: readonly PostureWarning[] = []): PostureWarnings {
  const byCode = new Map<string, PostureWarning>();
  const add = (code: string, message: string): boolean => {
    if (byCode.has(code)) return false;
    byCode.set(code, { code, message });
    return true;
  };
  for (const w of initial) add(w.code, w.message);
  return { add, list: () => [...byCode.values()] };
}
