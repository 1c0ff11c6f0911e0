/**
 * Cairn as a library: open a store, write, recall, serve it with Hono.
 * Run: `npx tsx examples/library.ts` (writes ./cairn.db, or CAIRN_DB_PATH).
 */
import { createApp, MemoryError, openMemory, parseConfig } from "cairn";

const memory = await openMemory(parseConfig({ CAIRN_DB_PATH: process.env.CAIRN_DB_PATH ?? "./cairn.db" }), {
  rssBytes: () => process.memoryUsage().rss,
});

const { id, status } = await memory.ingest({ title: "Deploy windows", content: "Deploys happen on Tuesday mornings." });
console.log(`ingest: ${status} #${id}`); // created #1 (duplicate #1 on a second run)

const { hits } = await memory.recall({ query: "when do deploys happen", limit: 3 });
for (const hit of hits) console.log(hit.id, hit.score.toFixed(3), hit.title ?? "", hit.content);

try {
  await memory.recall({ query: "deploys", limit: 0 });
} catch (e) {
  // The same SPEC §7 code as over HTTP (where it is a 400); `status` is set only where a code has no fixed one.
  if (e instanceof MemoryError) console.log(e.code, e.details); // limit_out_of_range { min: 1, max: 100 }
}

// A Hono app: app.fetch(request), or mount it in your own server.
const app = createApp(memory);
const res = await app.request("/health");
console.log(res.status); // 200

await memory.close();
