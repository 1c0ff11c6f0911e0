/**
 * In-process change signals for `GET /ump/subscribe` (SPEC §6): each change
 * is `{kind, id}` only, never a body. The scope travels beside the event so
 * a subscriber sees only changes to records it may read; it is not emitted.
 */
import type { ScopeLike } from "./actor.ts";

/** What changed. */
export type UmpChangeKind = "created" | "merged" | "revised" | "superseded" | "tombstoned" | "erased" | "feedback";

/** One change. */
export interface UmpChange {
  kind: UmpChangeKind;
  id: string;
  scope: ScopeLike;
}

/** The change bus. */
export interface UmpEvents {
  emit(change: UmpChange): void;
  /** Registers a listener; returns the function that removes it. */
  subscribe(listener: (change: UmpChange) => void): () => void;
  listeners(): number;
}

/** Builds a bus; a throwing listener never stops the others. */
export function createUmpEvents(): UmpEvents {
  const set = new Set<(change: UmpChange) => void>();
  return {
    emit(change) {
      for (const l of [...set]) {
        try {
          l(change);
        } catch {
          // A broken subscriber must not break the write that emitted.
        }
      }
    },
    subscribe(listener) {
      set.add(listener);
      return () => void set.delete(listener);
    },
    listeners: () => set.size,
  };
}
