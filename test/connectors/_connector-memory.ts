/** A fresh memory for connector registration tests: its own config dir and the real 0600 connector files. */
import { join } from "node:path";
import { afterEach } from "vitest";
import { connectorFiles } from "../../src/runtime/private-file.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";

/** Installs an afterEach that closes the memory; the returned `open()` opens it (configs under `<dir>/config`). */
export function useConnectorMemory(): () => Promise<TestMemory> {
  let t: TestMemory | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  return async () => {
    const dir = tempDir();
    t = await openTestMemory({ CAIRN_CONFIG_DIR: join(dir, "config") }, { connectorFiles }, dir);
    return t;
  };
}
