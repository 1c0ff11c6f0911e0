/**
 * The typed client, `cairn/client`: one method per operation, success shapes
 * as results, every refusal thrown as a MemoryError.
 * Run against a server (`npm run serve`): `CAIRN_TOKEN=… npx tsx examples/client.ts`.
 */
import { createClient, MemoryError } from "cairn/client";

const cairn = createClient({ baseUrl: process.env.CAIRN_URL ?? "http://127.0.0.1:8765", token: process.env.CAIRN_TOKEN });

const { id } = await cairn.ingest({ title: "Rollback", content: "Rollbacks need the on-call engineer's approval." });
console.log("stored", id);

const { hits } = await cairn.recall({ query: "who approves a rollback", limit: 3 }); // hits: RecallHit[]
for (const hit of hits) console.log(hit.id, hit.score, hit.title);

try {
  await cairn.recall({ query: "x", limit: 0 });
} catch (e) {
  if (e instanceof MemoryError) console.log(e.code, e.status, e.details); // limit_out_of_range 400 { min: 1, max: 100 }
}

const { result } = await cairn.ump.remember({ kind: "semantic", body: { text: "Staging is rebuilt every Sunday." } });
console.log(result); // created

const { domains } = await cairn.listDomains();
console.log(domains.map((d) => `${d.name}: ${d.entries}`).join(", "));
