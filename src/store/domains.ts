/** Domain registry rows (SPEC §2.5, §4.5). `global` always exists. */
import type { Exec } from "./db.ts";
import { localOf } from "./domain-dbs.ts";

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
  // In multi-database mode the rows are in the domain's database (`localOf`), the registry row in the global one.
  const local = localOf(ex);
  const rs = await local.execute({ sql: "DELETE FROM chunks WHERE domain = ?", args: [name] });
  await local.execute({ sql: "DELETE FROM relations WHERE domain = ?", args: [name] });
  await local.execute({ sql: "DELETE FROM entities WHERE domain = ?", args: [name] });
  await ex.execute({ sql: "DELETE FROM domains WHERE name = ?", args: [name] });
  return rs.rowsAffected;
}

/** Reclaims free pages (SPEC §4.5 vacuum). Runs outside any transaction. */
export async function vacuum(ex: Exec): Promise<void> {
  await ex.execute("VACUUM");
}

/** Registered domain names, in name order. */
export async function listDomainNames(ex: Exec): Promise<string[]> {
  return (await ex.execute("SELECT name FROM domains ORDER BY name")).rows.map((r) => String(r.name));
}

/** One domain's entry, entity and relation counts in the database holding it (SPEC §2.5, multi-database mode). */
export async function domainCounts(ex: Exec, name: string): Promise<{ entries: number; entities: number; relations: number }> {
  const rs = await localOf(ex).execute({
    sql: `SELECT (SELECT COUNT(*) FROM chunks WHERE domain = ?) AS entries, (SELECT COUNT(*) FROM entities WHERE domain = ?) AS entities,
            (SELECT COUNT(*) FROM relations WHERE domain = ? AND superseded_at IS NULL) AS relations`,
    args: [name, name, name],
  });
  const r = rs.rows[0];
  return { entries: Number(r.entries), entities: Number(r.entities), relations: Number(r.relations) };
}
