/**
 * SPEC §4 common rules and §2.2: optional fields are omitted, never null. A store holding one of everything is read
 * through every GET route the app registers (path parameters filled from what was created), and every JSON reply is
 * walked: a null may appear only where the OpenAPI document declares the field nullable (the spec's own nullable
 * fields, such as a proposal's `promoted_chunk_id`).
 */
import { join } from "node:path";
import { parse } from "yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isEndpointRoute } from "../../src/http/endpoint.ts";
import { connectorFiles } from "../../src/runtime/private-file.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
const ids: Record<string, string> = {};
/** POST replies seen while the store was filled, walked like the GET replies. */
const posted: Array<{ path: string; status: number; body: unknown }> = [];
beforeAll(async () => {
  const dir = tempDir();
  t = await openTestMemory({ CAIRN_CONFIG_DIR: join(dir, "config") }, { connectorFiles }, dir);
  const post = async (path: string, body: unknown) => {
    const r = await t.req("POST", path, body);
    expect(r.status, `${path}: ${await r.clone().text()}`).toBeLessThan(300);
    const reply = await r.json() as Record<string, unknown>;
    posted.push({ path, status: r.status, body: reply });
    return reply;
  };
  const a = await post("/ingest", { title: "Deploy windows", content: "Deploys happen on Tuesday mornings.", entities: [{ name: "deploys" }, { name: "tuesday" }], relations: [{ from: "deploys", to: "tuesday", type: "happen_on" }] });
  ids.id = String(a.id);
  await post("/ingest/markdown", { title: "Runbook", content: "# Runbook\n\nRollback needs [[approved_by::oncall]] approval." });
  const p = await post("/ingest/proposal", { title: "p", content: "a proposal waiting for review" });
  ids.proposal = String(p.id ?? (p.proposal as Record<string, unknown> | undefined)?.id);
  const u = await post("/ump/remember", { ump: "1.0", kind: "semantic", body: { text: "Staging is rebuilt on Sundays." } });
  ids.ump = String(u.id);
  await post("/connectors/register", { kind: "github", instance: "main", config: { api_base_url: "https://ghe.example.com/api/v3", app_id: "1", installation_id: "2", key_file: join(dir, "app.pem"), repos: ["acme/widgets"] } });
  const run = await post("/workflow/runs", { state_json: { case_ref: "crm:zendesk:acme:2", origin: "operator" } });
  ids.run = String(run.id ?? (run.run as Record<string, unknown> | undefined)?.id);
  const s = await post("/workflow/claim-schemas", { name: "deploy.day", schema: { type: "object", properties: { day: { type: "string" } } } });
  const claim = await post("/workflow/claims", { schema_id: (s.schema as Record<string, unknown>).id, claim: { day: "tuesday" }, evidence: [Number(ids.id)] });
  ids.claim = String(claim.id);
});
afterAll(async () => { await t.close(); });

type Schema = Record<string, unknown>;

describe("optional fields are omitted, never null", () => {
  it("no GET route answers a null the OpenAPI document does not declare nullable", async () => {
    const doc = parse((await (await t.req("GET", "/openapi.yaml")).text())) as { paths: Record<string, Record<string, Schema>>; components: { schemas: Record<string, Schema> } };
    const deref = (s: Schema | undefined): Schema | undefined => {
      if (s && typeof s.$ref === "string") return deref(doc.components.schemas[s.$ref.split("/").pop()!]);
      return s;
    };
    const allowsNull = (s: Schema | undefined): boolean => {
      s = deref(s);
      if (!s) return false;
      if (s.nullable === true || s.type === "null" || (Array.isArray(s.type) && s.type.includes("null"))) return true;
      for (const k of ["anyOf", "oneOf"]) if (Array.isArray(s[k]) && (s[k] as Schema[]).some(allowsNull)) return true;
      return false;
    };
    const child = (s: Schema | undefined, key: string | number): Schema | undefined => {
      s = deref(s);
      if (!s) return undefined;
      for (const k of ["anyOf", "oneOf", "allOf"]) if (Array.isArray(s[k])) for (const x of s[k] as Schema[]) { const c = child(x, key); if (c) return c; }
      if (typeof key === "number") return deref(s.items as Schema | undefined);
      const props = s.properties as Record<string, Schema> | undefined;
      if (props?.[key]) return props[key];
      return typeof s.additionalProperties === "object" ? s.additionalProperties as Schema : undefined;
    };
    const bad: string[] = [];
    const walk = (v: unknown, s: Schema | undefined, at: string) => {
      if (v === null) {
        if (!allowsNull(s)) bad.push(at);
        return;
      }
      if (Array.isArray(v)) v.forEach((x, i) => walk(x, child(s, i), `${at}[]`));
      else if (typeof v === "object") for (const [k, x] of Object.entries(v as object)) walk(x, child(s, k), `${at}.${k}`);
    };
    const fill = (path: string) => path
      .replace("/ump/memory/{id}", `/ump/memory/${encodeURIComponent(ids.ump!)}`)
      .replace(/\/workflow\/runs\/\{id\}/, `/workflow/runs/${ids.run}`)
      .replace(/\/workflow\/claims\/\{id\}/, `/workflow/claims/${ids.claim}`)
      .replace(/\/proposals\/\{id\}/, `/proposals/${ids.proposal}`)
      .replace(/\{id\}/, ids.id!).replace(/\{name\}/, "global");
    const skip = new Set(["/ump/subscribe", "/openapi.yaml", "/api/v1/events"]);
    let read = 0;
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (!ops.get || skip.has(path) || path.startsWith("/app")) continue;
      const res = await t.req("GET", fill(path));
      if (!(res.headers.get("content-type") ?? "").includes("json") || res.status >= 300) continue;
      read++;
      const schema = ((ops.get.responses as Record<string, Schema>)[String(res.status)]?.content as Record<string, Schema> | undefined)?.["application/json"]?.schema as Schema | undefined;
      walk(await res.json(), schema, `GET ${path}`);
    }
    for (const p of posted) {
      const op = doc.paths[p.path]?.post;
      const schema = ((op?.responses as Record<string, Schema> | undefined)?.[String(p.status)]?.content as Record<string, Schema> | undefined)?.["application/json"]?.schema as Schema | undefined;
      walk(p.body, schema, `POST ${p.path}`);
    }
    expect(read).toBeGreaterThan(20);
    expect(bad).toEqual([]);
  });

  it("the OpenAPI document declares a reply field nullable only where the specification makes it so", async () => {
    const doc = parse((await (await t.req("GET", "/openapi.yaml")).text())) as { components: { schemas: Record<string, Schema> }; paths: Record<string, Record<string, Schema>> };
    const nullable: string[] = [];
    const scan = (s: unknown, at: string) => {
      if (!s || typeof s !== "object") return;
      const o = s as Schema;
      if (o.nullable === true || o.type === "null" || (Array.isArray(o.type) && o.type.includes("null"))) nullable.push(at);
      for (const [k, v] of Object.entries(o)) if (k !== "parameters") scan(v, `${at}/${k}`);
    };
    for (const [name, s] of Object.entries(doc.components.schemas)) scan(s, name);
    for (const [path, ops] of Object.entries(doc.paths)) for (const [m, op] of Object.entries(ops)) scan(op.responses, `${m} ${path}`);
    // SPEC §2.7: promoted_chunk_id is a nullable integer. UMP 1.0 records (SPEC §2.8) carry `time.valid_to: null`
    // for a version still valid: it is part of the signed record, so it travels as the protocol writes it.
    const allowed = [/promoted_chunk_id$/, /time\/properties\/valid_to$/];
    expect(nullable.filter((n) => !allowed.some((re) => re.test(n)))).toEqual([]);
  });
});
