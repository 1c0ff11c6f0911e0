/**
 * MCP/HTTP parity (SPEC §4.9: the MCP tools proxy the same handlers, so
 * behaviour is identical). Two fresh stores with identical clocks get the
 * same sequence of operations, one over HTTP and one over MCP (the SDK's
 * client over an in-memory transport); every result must be equal,
 * including errors. Also: the resource view and the stdio server binary.
 */
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterEach, describe, expect, it } from "vitest";
import { createMcpServer } from "../../src/mcp/mcp-server.ts";
import { operatorActor } from "../../src/ump/actor.ts";
import { connectorFiles } from "../../src/runtime/private-file.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";

const open: { close(): Promise<void> }[] = [];
afterEach(async () => {
  for (const c of open.splice(0).reverse()) await c.close();
});

/** A clock that moves 1 ms per reading, so both stores see the same times for the same call sequence. */
function steppingClock() {
  let now = Date.parse("2026-05-01T12:00:00.000Z");
  return () => new Date(now++);
}

async function mcpClient(m: TestMemory): Promise<Client> {
  const server = createMcpServer(m.memory, async () => operatorActor(await m.memory.ump.operatorDid()));
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(a);
  const client = new Client({ name: "parity-test", version: "1.0.0" });
  await client.connect(b);
  open.push(client);
  return client;
}

// `status` is the outcome each step must have, so a step failing the same way on both bindings still fails the test.
type Call = { status: number; tool: string; method: string; path: (s: Record<string, string>) => string; args: (s: Record<string, string>) => Record<string, unknown> };

const SEQUENCE: Call[] = [
  { status: 200, tool: "ump.capabilities", method: "GET", path: () => "/ump/capabilities", args: () => ({}) },
  { status: 200, tool: "ump.remember", method: "POST", path: () => "/ump/remember", args: () => ({ kind: "semantic", title: "Rollbacks", body: { text: "Rollbacks use the blue-green switch" } }) },
  { status: 200, tool: "ump.remember", method: "POST", path: () => "/ump/remember", args: () => ({ kind: "procedural", body: { text: "Page the on-call before a rollback" }, scope: { project: "ops", visibility: "shared" } }) },
  { status: 200, tool: "ump.remember", method: "POST", path: () => "/ump/remember", args: () => ({ kind: "semantic", title: "Rollbacks", body: { text: "Rollbacks use the blue-green switch" } }) },
  { status: 400, tool: "ump.remember", method: "POST", path: () => "/ump/remember", args: () => ({ kind: "semantic" }) },
  { status: 200, tool: "ump.get", method: "GET", path: (s) => `/ump/memory/${s.r1}`, args: (s) => ({ id: s.r1 }) },
  { status: 404, tool: "ump.get", method: "GET", path: () => "/ump/memory/urn:ump:aaaaaaaa", args: () => ({ id: "urn:ump:aaaaaaaa" }) },
  { status: 200, tool: "ump.recall", method: "POST", path: () => "/ump/recall", args: () => ({ query: "rollback", limit: 5 }) },
  { status: 200, tool: "ump.revise", method: "POST", path: () => "/ump/revise", args: (s) => ({ id: s.r1, patch: { body: { text: "Rollbacks use the canary switch" } } }) },
  { status: 200, tool: "ump.get", method: "GET", path: (s) => `/ump/memory/${s.r1}`, args: (s) => ({ id: s.r1 }) },
  { status: 200, tool: "ump.feedback", method: "POST", path: () => "/ump/feedback", args: (s) => ({ id: s.r2, outcome: "followed", session: "p" }) },
  { status: 200, tool: "ump.recall", method: "POST", path: () => "/ump/recall", args: () => ({ query: "rollback", scope: { project: "ops" }, filter: { kind: "procedural" } }) },
  { status: 200, tool: "ump.forget", method: "POST", path: () => "/ump/forget", args: (s) => ({ id: s.r2, reason: "parity" }) },
  { status: 400, tool: "ump.recall", method: "POST", path: () => "/ump/recall", args: () => ({ query: "rollback", limit: 99 }) },
  { status: 200, tool: "ump.audit", method: "POST", path: () => "/ump/audit", args: () => ({ limit: 50 }) },
  { status: 200, tool: "ump.audit.verify", method: "GET", path: () => "/ump/audit/verify", args: () => ({}) },
];

describe("MCP and HTTP give identical results", () => {
  it("runs the same sequence over both bindings on twin stores and compares every reply", async () => {
    // One config dir, so both stores hash audit identifiers under the same subject salt (issue 35).
    const cfg = { CAIRN_CONFIG_DIR: tempDir() };
    const httpStore = await openTestMemory(cfg, { clock: steppingClock(), connectorFiles });
    const mcpStore = await openTestMemory(cfg, { clock: steppingClock(), connectorFiles });
    open.push(httpStore, mcpStore);
    const client = await mcpClient(mcpStore);
    const state: Record<string, string> = {};
    for (const [i, call] of SEQUENCE.entries()) {
      const res = await httpStore.req(call.method, call.path(state), call.method === "GET" ? undefined : call.args(state));
      const httpBody = await res.json();
      const viaMcp = await client.callTool({ name: call.tool, arguments: call.args(state) });
      expect(res.status, `${i} ${call.tool} ${JSON.stringify(httpBody)}`).toBe(call.status);
      if (res.status === 200) {
        expect(viaMcp.isError, `${i} ${call.tool}`).toBeFalsy();
        expect(viaMcp.structuredContent, `${i} ${call.tool}`).toEqual(httpBody);
        expect(JSON.parse((viaMcp.content as { text: string }[])[0].text)).toEqual(httpBody);
      } else {
        expect(viaMcp.isError, `${i} ${call.tool}`).toBe(true);
        expect(viaMcp.structuredContent, `${i} ${call.tool}`).toEqual({ ...httpBody, status: res.status });
      }
      if (i === 1) state.r1 = httpBody.id;
      if (i === 2) state.r2 = httpBody.id;
    }
    expect(state.r1).toMatch(/^urn:ump:/);
    expect(state.r2).toMatch(/^urn:ump:/);
    expect(state.r2).not.toBe(state.r1);
  });

  it("lists the nine tools and exposes records as ump://{project}/{id} resources", async () => {
    const m = await openTestMemory();
    open.push(m);
    const client = await mcpClient(m);
    const tools = (await client.listTools()).tools.map((t) => t.name).sort();
    expect(tools).toEqual(["ump.audit", "ump.audit.verify", "ump.capabilities", "ump.feedback", "ump.forget", "ump.get", "ump.recall", "ump.remember", "ump.revise"]);
    const r = await (await m.req("POST", "/ump/remember", { kind: "semantic", body: { text: "Resources mirror records" }, scope: { project: "docs" } })).json();
    await m.req("POST", "/ingest", { title: "legacy", content: "A chunk from the structured door" });
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates[0].uriTemplate).toBe("ump://{project}/{id}");
    const list = await client.listResources();
    const uris = list.resources.map((x) => x.uri);
    expect(uris).toContain(`ump://docs/${r.id}`);
    expect(uris.filter((u) => u.startsWith("ump://_/"))).toHaveLength(1);
    const read = await client.readResource({ uri: `ump://docs/${r.id}` });
    const http = await (await m.req("GET", `/ump/memory/${r.id}`)).json();
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual(http.record);
    await expect(client.readResource({ uri: `ump://other/${r.id}` })).rejects.toThrow();
  });

  it("cairn mcp serves the tools over stdio", async () => {
    const root = resolve(new URL("../..", import.meta.url).pathname);
    const dir = tempDir();
    const transport = new StdioClientTransport({
      command: "node", args: [join(root, "bin", "cairn.mjs"), "mcp"], cwd: root,
      env: { ...(process.env as Record<string, string>), CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: join(dir, "keys"), CAIRN_EMBED_KIND: "none" },
    });
    const client = new Client({ name: "stdio-test", version: "1.0.0" });
    await client.connect(transport);
    open.push(client);
    const remembered = await client.callTool({ name: "ump.remember", arguments: { kind: "semantic", body: { text: "Spoken over stdio" } } });
    expect((remembered.structuredContent as { result: string }).result).toBe("created");
    const caps = await client.callTool({ name: "ump.capabilities", arguments: {} });
    expect((caps.structuredContent as { conformance: string }).conformance).toBe("L2");
  });

  it("answers every request read before stdin closed (cairn mcp < requests.jsonl), then exits 0", async () => {
    const root = resolve(new URL("../..", import.meta.url).pathname);
    const dir = tempDir();
    const child = spawn("node", [join(root, "bin", "cairn.mjs"), "mcp"], {
      cwd: root, env: { ...process.env, CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: join(dir, "keys"), CAIRN_EMBED_KIND: "none" },
    });
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    const exited = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
    const msgs = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipe", version: "1" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ump.remember", arguments: { kind: "semantic", body: { text: "Piped in and answered" } } } },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "ump.recall", arguments: { query: "piped" } } },
    ];
    child.stdin.end(msgs.map((m) => JSON.stringify(m)).join("\n") + "\n");
    expect(await exited).toBe(0);
    const replies = out.trim().split("\n").map((l) => JSON.parse(l));
    expect(replies.map((r) => r.id).sort()).toEqual([1, 2, 3]);
    expect(replies.find((r) => r.id === 2).result.structuredContent.result).toBe("created");
  });
});
