/**
 * `hc<AppType>` from `hono/client`, typed end to end, for anything the
 * client does not wrap. Responses are unions by status: check `res.ok` (or
 * `res.status`) before reading the body.
 */
import { hc } from "hono/client";
import type { AppType } from "cairn/client";

const token = process.env.CAIRN_TOKEN ?? "";
const api = hc<AppType>(process.env.CAIRN_URL ?? "http://127.0.0.1:8765", { headers: { authorization: `Bearer ${token}` } });

const res = await api.domains.$get();
if (res.ok) {
  const { domains } = await res.json(); // { domains: DomainEntry[] }
  console.log(domains.map((d) => d.name));
} else {
  const { error } = await res.json(); // the SPEC §7 envelope
  console.log(res.status, error.code);
}

const r = await api.recall.$post({ json: { query: "deploy windows", limit: 3 } });
if (r.status === 200) console.log((await r.json()).hits.length);
