/**
 * Owner-only files for connectors (issue 15; SPEC §5 item 1): connector configs, their secrets and the subject salt
 * must be mode 0600 or they are refused at load, never silently used. Creation is exclusive and owner-only
 * (directory 0700, file 0600). Node and Deno.
 */
import { MemoryError } from "../core/errors.ts";
import { isDeno } from "./platform.ts";

// deno-lint-ignore no-explicit-any
const g = globalThis as any;

function windows(): boolean {
  return isDeno ? g.Deno.build.os === "windows" : g.process.platform === "win32";
}

/** Configs, secrets and the salt are a few KiB; anything past this is not one of them (bounded read, STYLE 17). */
const MAX_PRIVATE_BYTES = 1024 * 1024;

/**
 * Reads an owner-only file's text; undefined when absent; `insecure_file_mode` when group or others may read it.
 * The mode, the kind and the size are checked before a byte is read, so a path naming a device or a huge file is
 * refused without reading it.
 */
export async function readPrivateText(path: string, label = "file"): Promise<string | undefined> {
  let st: { mode: number; size: number; isFile: boolean };
  try {
    if (isDeno) {
      const d = await g.Deno.stat(path);
      st = { mode: d.mode ?? 0, size: d.size, isFile: d.isFile };
    } else {
      const d = await (await import("node:fs/promises")).stat(path);
      st = { mode: d.mode, size: d.size, isFile: d.isFile() };
    }
  } catch (e) {
    if ((e as { code?: string; name?: string }).code === "ENOENT" || (e as { name?: string }).name === "NotFound") return undefined;
    throw new MemoryError("connector_config_unreadable", `The ${label} could not be read`, undefined, 400);
  }
  if (!windows() && (st.mode & 0o077) !== 0) {
    const octal = (st.mode & 0o777).toString(8).padStart(4, "0");
    throw new MemoryError("insecure_file_mode", `The ${label} has mode ${octal}; chmod 600 it (owner-only is required)`, { mode: octal }, 400);
  }
  if (!st.isFile || st.size > MAX_PRIVATE_BYTES) {
    throw new MemoryError("connector_config_unreadable", `The ${label} is not a regular file of at most 1 MiB`, undefined, 400);
  }
  try {
    return isDeno ? await g.Deno.readTextFile(path) : await (await import("node:fs/promises")).readFile(path, "utf8");
  } catch {
    throw new MemoryError("connector_config_unreadable", `The ${label} could not be read`, undefined, 400);
  }
}

/** Creates `path` (parent directory 0700) with mode 0600; throws when it already exists. */
export async function writeNewPrivateText(path: string, text: string): Promise<void> {
  const dir = path.slice(0, Math.max(path.lastIndexOf("/"), 0));
  if (isDeno) {
    if (dir) await g.Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    await g.Deno.writeTextFile(path, text, { createNew: true, mode: 0o600 });
    if (!windows()) await g.Deno.chmod(path, 0o600);
    return;
  }
  const fs = await import("node:fs/promises");
  if (dir) await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await fs.writeFile(path, text, { flag: "wx", mode: 0o600 });
  if (!windows()) await fs.chmod(path, 0o600);
}

/** Writes (creating or replacing) an owner-only file atomically: temp file 0600, then rename. */
export async function writePrivateText(path: string, text: string): Promise<void> {
  const dir = path.slice(0, Math.max(path.lastIndexOf("/"), 0));
  const tmp = `${path}.tmp-${Math.random().toString(36).slice(2)}`;
  if (isDeno) {
    if (dir) await g.Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    await g.Deno.writeTextFile(tmp, text, { createNew: true, mode: 0o600 });
    if (!windows()) await g.Deno.chmod(tmp, 0o600);
    await g.Deno.rename(tmp, path);
    return;
  }
  const fs = await import("node:fs/promises");
  if (dir) await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  await fs.writeFile(tmp, text, { flag: "wx", mode: 0o600 });
  if (!windows()) await fs.chmod(tmp, 0o600);
  await fs.rename(tmp, path);
}

/** A `SaltFile` (src/connectors/subject-salt.ts) over an owner-only file. */
export function privateSaltFile(path: string): { read(): Promise<string | undefined>; createNew(text: string): Promise<void> } {
  return { read: () => readPrivateText(path, "subject salt file"), createNew: (text) => writeNewPrivateText(path, text) };
}

/** The `ConnectorFiles` port (src/connectors/config-files.ts) over owner-only files. */
export const connectorFiles = {
  read: (path: string, label: string) => readPrivateText(path, label),
  write: (path: string, text: string) => writePrivateText(path, text),
  createNew: (path: string, text: string) => writeNewPrivateText(path, text),
};
