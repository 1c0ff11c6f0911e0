/**
 * `subject_ref` (SPEC §2.11; issue 15): the salted SHA-256 of a requester's identity, 64 lower-case hex, so cases of
 * the same person can be linked without storing who they are. The salt is 32 random bytes (hex) in a 0600 file
 * (`<config_dir>/connectors/subject-salt`), made on first use and never rotated by Cairn (rotation would unlink every
 * earlier case). File I/O is a port (`SaltFile`), implemented in `src/runtime/private-file.ts`.
 */

/** The salt file as a port: read it (refusing a mode looser than 0600), or create it exclusively. */
export interface SaltFile {
  /** The file's text, or undefined when it does not exist; throws when it is readable by group or others. */
  read(): Promise<string | undefined>;
  /** Creates the file with mode 0600; throws when it already exists (another process made it first). */
  createNew(text: string): Promise<void>;
}

/** Returns `subjectRef(identity)`: hex SHA-256 of `salt ‖ 0x00 ‖ normalized identity`. */
export function createSubjectRef(file: SaltFile): (identity: string) => Promise<string> {
  let salt: Promise<string> | undefined;
  const load = async (): Promise<string> => {
    const existing = (await file.read())?.trim();
    if (existing) return existing;
    const fresh = toHex(crypto.getRandomValues(new Uint8Array(32)));
    try {
      await file.createNew(`${fresh}\n`);
      return fresh;
    } catch {
      // Lost the race with another process: use the salt it wrote.
      const again = (await file.read())?.trim();
      if (!again) throw new Error("The subject salt file could not be created");
      return again;
    }
  };
  return async (identity) => {
    salt ??= load().catch((e) => {
      salt = undefined; // a failed read is retried on the next call, not cached
      throw e;
    });
    // Identities are compared case-insensitively (emails): the same person must map to the same ref.
    const data = new TextEncoder().encode(`${await salt}\u0000${identity.trim().toLowerCase()}`);
    return toHex(new Uint8Array(await crypto.subtle.digest("SHA-256", data)));
  };
}

function toHex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}
