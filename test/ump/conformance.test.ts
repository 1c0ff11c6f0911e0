/**
 * The 13 reference conformance checks of the UMP notes, run against a fresh
 * keyed instance over real loopback HTTP (SPEC §9 item 9). The suite is
 * written from the notes: the owner is the peer the capability token was
 * minted for (`aud`), so `scope.owner` equals the authenticated principal.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dirKeyring } from "../../src/runtime/ump-keyring.ts";
import { bootServer, type BootedServer } from "../../src/server.ts";
import { mintToken } from "../../src/ump/capability-token.ts";
import { didFromSeed, generateSeed } from "../../src/ump/did-key.ts";
import { tempDir } from "../_helpers/memory.ts";
import { independentVerify } from "./_independent-verifier.ts";

interface Check {
  id: string;
  level: "L1" | "L2" | "L3";
  ok: boolean;
  detail: string;
}

async function runChecks(base: string, token: string, owner: string): Promise<Check[]> {
  const checks: Check[] = [];
  const add = (id: string, level: Check["level"], ok: boolean, detail: string) => checks.push({ id, level, ok, detail });
  const call = async (method: string, path: string, body?: unknown, auth: string | null = token) => {
    const res = await fetch(base + path, {
      method,
      headers: { "content-type": "application/json", ...(auth ? { authorization: `Bearer ${auth}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.status, json };
  };
  const scope = { owner, project: "ump/conformance", visibility: "private" };
  const provenance = { actor: owner, actor_kind: "user", method: "user_correction" };

  const caps = await call("GET", "/ump/capabilities", undefined, null);
  add("capabilities", "L1", caps.status === 200 && caps.json?.ump === "1.0" && caps.json?.kinds?.length === 5, `status ${caps.status}`);
  const rem = await call("POST", "/ump/remember", { kind: "procedural", body: { text: "conformance: run the gate before handoff" }, scope, provenance });
  const id: string = rem.json?.id ?? "";
  add("remember", "L1", rem.status === 200 && rem.json?.result === "created" && id !== "", `status ${rem.status}, result ${rem.json?.result}`);
  const got = await call("GET", `/ump/memory/${encodeURIComponent(id)}`);
  const record = got.json?.record;
  add("get", "L1", got.status === 200 && typeof record?.body?.text === "string", `status ${got.status}`);
  const rec = await call("POST", "/ump/recall", { ump: "1.0", query: "gate handoff", scope: { owner, project: "ump/conformance" } });
  const results = rec.json?.results ?? [];
  add("recall", "L1", rec.status === 200 && results.some((r: any) => r.record?.id === id) && typeof results[0]?.signals === "object", // eslint-disable-line @typescript-eslint/no-explicit-any
    `status ${rec.status}, ${results.length} results`);

  const rev = await call("POST", "/ump/revise", { id, patch: { body: { text: "conformance: use the new gate" } } });
  add("revise", "L2", rev.status === 200 && Array.isArray(rev.json?.supersedes) && rev.json.supersedes.includes(id), `status ${rev.status}`);
  const prior = await call("GET", `/ump/memory/${encodeURIComponent(id)}`);
  add("bitemporal", "L2", prior.json?.record?.time?.valid_to != null && prior.json?.record?.superseded_by?.length > 0,
    `valid_to ${prior.json?.record?.time?.valid_to}`);
  const tmp = await call("POST", "/ump/remember", { kind: "working", body: { text: "conformance throwaway note" }, scope, provenance });
  const f = await call("POST", "/ump/forget", { id: tmp.json?.id, reason: "conformance" });
  add("forget", "L2", f.status === 200 && ["tombstoned", "erased"].includes(f.json?.result), `result ${f.json?.result}`);
  const bad = await call("POST", "/ump/remember", { kind: "semantic", scope });
  add("validation", "L2", bad.status === 400 && bad.json?.error?.code === "invalid_record", `status ${bad.status}, code ${bad.json?.error?.code}`);

  const wk = await call("GET", "/.well-known/ump.json", undefined, null);
  add("discovery", "L3", wk.status === 200 && !!wk.json?.ump && !!wk.json?.conformance, `status ${wk.status}, ${wk.json?.conformance}`);
  add("signed", "L3", !!record?.integrity && independentVerify(record), record?.integrity ? "independent verifier" : "no integrity");
  const fb = await call("POST", "/ump/feedback", { id, outcome: "followed", session: "ump-conformance" });
  add("feedback", "L3", fb.status === 200 && fb.json?.ok === true, `status ${fb.status}`);
  const noToken = await call("POST", "/ump/recall", { query: "gate", scope: { owner, project: "ump/conformance" } }, null);
  const withToken = await call("POST", "/ump/recall", { query: "gate", scope: { owner, project: "ump/conformance" } });
  add("capability_tokens", "L3", noToken.status === 401 && withToken.status === 200, `no token ${noToken.status}, token ${withToken.status}`);
  const ac = new AbortController();
  const sub = await fetch(base + "/ump/subscribe", { headers: { authorization: `Bearer ${token}` }, signal: ac.signal });
  add("subscribe", "L3", sub.status === 200 && (sub.headers.get("content-type") ?? "").includes("text/event-stream"),
    `status ${sub.status}, ${sub.headers.get("content-type")}`);
  ac.abort();
  return checks;
}

describe("UMP 1.0 reference conformance over real HTTP", () => {
  let booted: BootedServer;
  let base: string;
  let token: string;
  let owner: string;
  beforeAll(async () => {
    const dir = tempDir();
    const keys = join(dir, "keys");
    const { seed } = await dirKeyring(keys).generate();
    owner = didFromSeed(generateSeed());
    token = mintToken(seed, { verbs: ["read", "write", "derive", "export"], scope: {}, aud: owner, ttl: "1h", now: new Date() });
    booted = await bootServer({ CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: keys }, 0);
    base = `http://127.0.0.1:${booted.server.port}`;
  });
  afterAll(async () => {
    await booted?.close();
  });

  it("scores 13 of 13 at L3 on a fresh keyed instance", async () => {
    const checks = await runChecks(base, token, owner);
    const table = ["| level | check | result | detail |", "|---|---|---|---|",
      ...checks.map((c) => `| ${c.level} | ${c.id} | ${c.ok ? "pass" : "FAIL"} | ${c.detail} |`)].join("\n");
    console.log(`UMP conformance ${checks.filter((c) => c.ok).length}/${checks.length}\n${table}`);
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks).toHaveLength(13);
    const caps = await (await fetch(`${base}/ump/capabilities`)).json();
    expect(caps.conformance).toBe("L3");
  });
});
