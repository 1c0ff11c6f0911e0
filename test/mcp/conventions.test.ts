/**
 * MCP conventions (issue 21): an unknown tool is the JSON-RPC error the MCP
 * specification prescribes (-32602 Invalid params, "Tools › Error Handling"),
 * not a tool result; `cairn mcp --tool-names underscore` lists and answers
 * `ump_remember`, … for model APIs limited to `[A-Za-z0-9_-]`.
 */
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer } from "../../src/mcp/mcp-server.ts";
import { operatorActor } from "../../src/ump/actor.ts";
import { openTestMemory, tempDir, type TestMemory } from "../_helpers/memory.ts";

describe("MCP conventions", () => {
  let m: TestMemory;
  let client: Client;
  beforeAll(async () => {
    m = await openTestMemory();
    const server = createMcpServer(m.memory, async () => operatorActor(await m.memory.ump.operatorDid()));
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    client = new Client({ name: "conventions-test", version: "1.0.0" });
    await client.connect(b);
  });
  afterAll(async () => {
    await client.close();
    await m.close();
  });

  it("answers an unknown tool with JSON-RPC -32602, not a tool result", async () => {
    const err = await client.callTool({ name: "ump.nonesuch", arguments: {} }).catch((e) => e);
    expect(err).toBeInstanceOf(McpError);
    expect(err.code).toBe(ErrorCode.InvalidParams);
    expect(err.code).toBe(-32602);
    expect(err.message).toContain("Unknown tool: ump.nonesuch");
    // A known tool's domain refusal stays a tool result with the SPEC §7 envelope.
    const bad = await client.callTool({ name: "ump.remember", arguments: { kind: "semantic" } });
    expect(bad.isError).toBe(true);
    expect((bad.structuredContent as { error: { code: string } }).error.code).toBe("invalid_record");
  });

  it("cairn mcp --tool-names underscore lists and answers ump_remember; dotted names are then unknown", async () => {
    const root = resolve(new URL("../..", import.meta.url).pathname);
    const dir = tempDir();
    const child = spawn("node", [join(root, "bin", "cairn.mjs"), "mcp", "--tool-names", "underscore"], {
      cwd: root, env: { ...process.env, CAIRN_DB_PATH: join(dir, "c.db"), CAIRN_UMP_KEY_DIR: join(dir, "keys"), CAIRN_EMBED_KIND: "none" },
    });
    let out = "";
    child.stdout.on("data", (b: Buffer) => (out += b.toString()));
    const exited = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
    const msgs = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "pipe", version: "1" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list", params: {} },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "ump_remember", arguments: { kind: "semantic", body: { text: "Named with underscores" } } } },
      { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "ump.remember", arguments: { kind: "semantic", body: { text: "dotted" } } } },
    ];
    child.stdin.end(msgs.map((x) => JSON.stringify(x)).join("\n") + "\n");
    expect(await exited).toBe(0);
    const replies = new Map(out.trim().split("\n").map((l) => JSON.parse(l)).map((r) => [r.id, r]));
    const names: string[] = replies.get(2).result.tools.map((t: { name: string }) => t.name);
    expect(names).toContain("ump_remember");
    expect(names).toContain("ump_audit_verify");
    expect(names.every((n) => /^[A-Za-z0-9_-]+$/.test(n))).toBe(true);
    expect(replies.get(3).result.structuredContent.result).toBe("created");
    expect(replies.get(4).error).toMatchObject({ code: -32602 });
  });
});
