/**
 * The runtime's `WorkScope` (src/core/deadline.ts): the running request's deadline is carried across its awaits by
 * `AsyncLocalStorage` (Node and Deno both provide `node:async_hooks`), so the write path, the store's transactions
 * and the other CPU-bound loops find it without every door passing it along; the event loop is yielded to with
 * `setImmediate` (Node) or a zero timeout (Deno).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Deadline, WorkScope } from "../core/deadline.ts";
import { isDeno } from "./platform.ts";

/** A scope carrying each request's deadline across its awaits. */
export function asyncWorkScope(): WorkScope {
  const als = new AsyncLocalStorage<Deadline>();
  // deno-lint-ignore no-explicit-any
  const immediate = (globalThis as any).setImmediate as ((f: () => void) => void) | undefined;
  return {
    run: (deadline, fn) => als.run(deadline, fn),
    current: () => als.getStore(),
    yieldNow: !isDeno && immediate ? () => new Promise<void>((r) => immediate(r)) : () => new Promise<void>((r) => setTimeout(r, 0)),
  };
}
