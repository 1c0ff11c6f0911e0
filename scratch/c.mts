import { openTestMemory } from "/work/wt-gov/test/_helpers/memory.ts";
const t = await openTestMemory();
await t.req("POST", "/ingest", { title: "x", content: "mail jane@x.org now" });
const out = await (await t.req("POST", "/dsar", { email: "jane@x.org" })).json();
console.log(JSON.stringify(out.certificate));
console.log(JSON.stringify(await (await t.req("POST", "/dsar/verify", out.certificate)).json()));
console.log(JSON.stringify((await (await t.req("GET", "/audit")).json()).rows));
await t.close();
