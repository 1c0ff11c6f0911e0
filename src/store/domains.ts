/** Domain registry rows (SPEC §2.5, §4.5). `global` always exists. */
import type { Exec } from "./db.ts";

/** Registers a domain; returns true when it was newly created. */
export async function insertDomain(ex: Exec, name: string, createdAt: string): Promise<boolean> {
  const rs = await ex.execute({
    sql: "INSERT INTO domains (name, created_at) VALUES (?, ?) ON CONFLICT(name) DO NOTHING",
    args: [name, createdAt],
  });
  return rs.rowsAffected > 0;
}

/** True when the domain is registered. */
export async function domainExists(ex: Exec, name: string): Promise<boolean> {
  const rs = await ex.execute({ sql: "SELECT 1 FROM domains WHERE name = ?", args: [name] });
  return rs.rows.length > 0;
}

/** Domain names with their entry counts, in name order. */
export async function listDomainsWithCounts(ex: Exec): Promise<{ name: string; entries: number }[]> {
  const rs = await ex.execute(`SELECT d.name AS name, (SELECT COUNT(*) FROM chunks c WHERE c.domain = d.name) AS entries
    FROM domains d ORDER BY d.name`);
  return rs.rows.map((r) => ({ name: String(r.name), entries: Number(r.entries) }));
}

/** Removes a domain row and every row it owns (chunks, graph rows); returns the removed chunk count. */
export async function dropDomainRows(ex: Exec, name: string): Promise<number> {
  const rs = await ex.execute({ sql: "DELETE FROM chunks WHERE domain = ?", args: [name] });
  await ex.execute({ sql: "DELETE FROM relations WHERE domain = ?", args: [name] });
  await ex.execute({ sql: "DELETE FROM entities WHERE domain = ?", args: [name] });
  await ex.execute({ sql: "DELETE FROM domains WHERE name = ?", args: [name] });
  return rs.rowsAffected;
}

/** Reclaims free pages (SPEC §4.5 vacuum). Runs outside any transaction. */
export async function vacuum(ex: Exec): Promise<void> {
  await ex.execute("VACUUM");
}
