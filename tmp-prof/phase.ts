import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
const dir = mkdtempSync(join(tmpdir(), "p-"));
const c = createClient({ url: "file:" + join(dir, "x.db") });
await c.execute("PRAGMA journal_mode=WAL");
await c.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT, b TEXT)");
let t = performance.now();
const tx = await c.transaction("write");
for (let i = 0; i < 3000; i++) { await tx.execute({ sql: "INSERT INTO t (a,b) VALUES (?,?)", args: ["x" + i, "y"] }); await tx.execute({ sql: "SELECT * FROM t WHERE id = ?", args: [i] }); }
await tx.commit();
console.log("6000 stmts in tx", performance.now() - t);
t = performance.now();
for (let i = 0; i < 300; i++) await c.execute({ sql: "SELECT * FROM t WHERE id = ?", args: [i] });
console.log("300 autocommit selects", performance.now() - t);
