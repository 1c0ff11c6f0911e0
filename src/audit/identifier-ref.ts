/**
 * Salted identifier hashes for audit details (issue 35; STYLE: audit details hold no raw personal data). The audit
 * log is append-only, so nothing written there can be erased later: a conversation session id, a file path or a
 * forget reason is recorded as `hex SHA-256(salt ‖ 0x00 ‖ "audit:<kind>:<value>")` instead. The salt and the
 * construction are the connectors' `subject_ref` ones (src/connectors/subject-salt.ts, `<config_dir>/connectors/
 * subject-salt`, 0600): one secret kept outside the database, so a copy of the database alone cannot test guesses
 * against the hashes, and whoever holds the salt can still find the rows of a known identifier.
 *
 * Without a usable salt file (a runtime without file access, a config dir that cannot be written or a salt file
 * readable by others), a random salt held in memory is used for the process's lifetime and `onFallback` is told once:
 * a write never fails because of the salt, and the hashes then correlate within one process only.
 */
import { createSubjectRef, type SaltFile } from "../connectors/subject-salt.ts";

/** `ref(kind, value)`: the salted hash an audit detail carries instead of the identifier. */
export type IdentifierRef = (kind: string, value: string) => Promise<string>;

function memorySalt(): SaltFile {
  let text: string | undefined;
  return {
    read: () => Promise.resolve(text),
    createNew: (t) => {
      text = t;
      return Promise.resolve();
    },
  };
}

/** Builds the hasher over the salt file (absent: an in-memory salt). */
export function createIdentifierRef(file: SaltFile | undefined, onFallback: (e: unknown) => void = () => {}): IdentifierRef {
  const fallback = createSubjectRef(memorySalt());
  let primary = file ? createSubjectRef(file) : undefined;
  return async (kind, value) => {
    const identity = `audit:${kind}:${value}`;
    if (primary) {
      try {
        return await primary(identity);
      } catch (e) {
        primary = undefined;
        onFallback(e);
      }
    }
    return await fallback(identity);
  };
}
