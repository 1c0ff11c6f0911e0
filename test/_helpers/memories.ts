/** Several test memories per test, each closed (and its temp dir removed) after the test. */
import { afterEach } from "vitest";
import type { MemoryPorts } from "../../src/memory.ts";
import { openTestMemory, type TestMemory } from "./memory.ts";

/** Opens a test memory that closes after the test. */
export interface FreshMemories {
  (env?: Record<string, string>): Promise<TestMemory>;
  /** Closes `m`, opened some other way, after the test too. */
  track<T extends { close(): Promise<void> }>(m: T): T;
}

/**
 * Installs an afterEach that closes every memory opened in the test; the returned `fresh(env)` opens one on a new temp
 * dir with `base` and then `env` as its config, and the ports `ports()` builds (fresh per memory).
 */
export function useTestMemories(base: Record<string, string> = {}, ports: () => Partial<MemoryPorts> = () => ({})): FreshMemories {
  const open: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const m of open.splice(0)) await m.close();
  });
  const track = <T extends { close(): Promise<void> }>(m: T): T => {
    open.push(m);
    return m;
  };
  return Object.assign(async (env: Record<string, string> = {}) => track(await openTestMemory({ ...base, ...env }, ports())), { track });
}
