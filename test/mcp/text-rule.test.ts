/**
 * The text-field rule at the MCP door (docs/limits.md "Text fields"): a tool
 * argument holding NUL or a lone surrogate is a tool error with the SPEC §7
 * envelope, 400 naming the argument, and nothing is stored.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpServer } from "../../src/mcp/mcp-server.ts";
import { operatorActor } from "../../src/ump/actor.ts";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

describe("MCP tool arguments meet the text-field rule", () => {
  let m: TestMemory;
  let client: Client;
  beforeAll(async () => {
    m = await openTestMemory({ CAIRN_EMBED_KIND: "none" });
    const server = createMcpServer(m.memory, async () => operatorActor(await m.memory.ump.operatorDid()));
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    client = new Client({ name: "text-rule-test", version: "1.0.0" });
    await client.connect(b);
  });
  afterAll(async () => {
    await client.close();
    await m.close();
  });

  for (const [text, code, reason] of [["left\u0000right", "invalid_request", "nul"], ["left\ud800right", "invalid_unicode", "lone_surrogate"]] as const) {
    it(`ump.remember with ${reason} in body.text is a 400 ${code} naming body.text`, async () => {
      const r = await client.callTool({ name: "ump.remember", arguments: { kind: "semantic", body: { text } } });
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toMatchObject({ status: 400, error: { code, details: { field: "body.text", reason } } });
      expect((await m.memory.stats()).docs).toBe(0);
    });
  }

  it("ump.recall with a NUL in the query is refused the same way", async () => {
    const r = await client.callTool({ name: "ump.recall", arguments: { query: "what\u0000else" } });
    expect(r.structuredContent).toMatchObject({ status: 400, error: { code: "invalid_request", details: { field: "query" } } });
  });
});
