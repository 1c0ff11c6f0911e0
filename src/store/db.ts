/**
 * The database handle: a libSQL client plus a serialised write-transaction
 * helper. Every multi-row write goes through `write()` so it is one
 * transaction (STYLE rule 10); writes are serialised in-process so a local
 * file never answers SQLITE_BUSY to our own concurrent requests.
 */
import type { Client, InStatement, ResultSet, Transaction } from "@libsql/client";

/** Anything that can execute a statement: the client or an open transaction. */
export interface Exec {
  execute(stmt: InStatement): Promise<ResultSet>;
}

/** A libSQL database with a serialised write transaction helper. */
export class Db {
  readonly client: Client;
  /** True for a local file database, false for a remote libSQL server. */
  readonly local: boolean;
  private queue: Promise<unknown> = Promise.resolve();
  /** Optional observer of the write slot (`/metrics` lock-wait and busy-error series). */
  observer?: { lockWait(ms: number): void; busy(): void };

  constructor(client: Client, local: boolean) {
    this.client = client;
    this.local = local;
  }

  /** Runs `fn` inside one write transaction; rolls back on any throw. */
  write<T>(fn: (tx: Exec) => Promise<T>): Promise<T> {
    const queued = performance.now();
    const run = async (): Promise<T> => {
      let tx: Transaction;
      try {
        tx = await this.client.transaction("write");
      } catch (e) {
        if (isBusy(e)) this.observer?.busy();
        throw e;
      }
      // Lock wait: queued behind our own writers plus acquiring the database's write lock.
      this.observer?.lockWait(performance.now() - queued);
      try {
        const out = await fn(tx);
        await tx.commit();
        return out;
      } catch (e) {
        if (isBusy(e)) this.observer?.busy();
        if (!tx.closed) await tx.rollback().catch(() => {});
        throw e;
      } finally {
        tx.close();
      }
    };
    const p = this.queue.then(run, run);
    this.queue = p.catch(() => {});
    return p;
  }

  /** Runs a statement outside any explicit transaction. */
  execute(stmt: InStatement): Promise<ResultSet> {
    return this.client.execute(stmt);
  }

  /** Closes the client. */
  close(): void {
    this.client.close();
  }
}

// SQLITE_BUSY (and its extended codes) from a local file or a remote server.
function isBusy(e: unknown): boolean {
  const code = (e as { code?: unknown })?.code;
  return (typeof code === "string" && code.startsWith("SQLITE_BUSY")) || /SQLITE_BUSY|database is locked/i.test(String((e as Error)?.message ?? ""));
}
