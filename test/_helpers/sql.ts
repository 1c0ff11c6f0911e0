import { createClient } from "@libsql/client";

/** Runs one statement against a test's libSQL file on a connection of its own (what another process would read). */
export async function sql(dbPath: string, q: string, args: (string | number)[] = []) {
  const c = createClient({ url: `file:${dbPath}` });
  try {
    return (await c.execute({ sql: q, args })).rows;
  } finally {
    c.close();
  }
}
