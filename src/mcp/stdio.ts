/**
 * `cairn mcp`: the MCP server over stdio. It acts as the local operator,
 * or, with `--token`, as that capability token (verbs and scope apply).
 * Nothing but protocol messages goes to stdout.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Memory } from "../memory.ts";
import { onStdinEnd } from "../runtime/platform.ts";
import { operatorActor, type UmpActor } from "../ump/actor.ts";
import { createMcpServer, type ToolNames } from "./mcp-server.ts";

/** Serves until stdin closes and every request read before that is answered; resolves when the transport closes. */
export async function runMcpStdio(memory: Memory, o: { token?: string; toolNames?: ToolNames } = {}): Promise<void> {
  const actor = async (): Promise<UmpActor> =>
    o.token ? await memory.ump.authenticate({ bearer: o.token }) : operatorActor(await memory.ump.operatorDid());
  const server = createMcpServer(memory, actor, { toolNames: o.toolNames });
  const closed = new Promise<void>((resolve) => (server.onclose = () => resolve()));
  const transport = new StdioServerTransport();
  await server.connect(transport);
  // A client that writes its requests and closes stdin (`cairn mcp < requests.jsonl`) still gets every
  // answer: requests in flight are counted, and the server closes once the last reply has been sent.
  const pending = new Set<string | number>();
  let ended = false;
  const closeWhenIdle = () => {
    if (ended && pending.size === 0) void server.close();
  };
  const receive = transport.onmessage;
  transport.onmessage = (m: JSONRPCMessage) => {
    if ("method" in m && "id" in m) pending.add(m.id);
    receive?.(m);
  };
  const send = transport.send.bind(transport);
  transport.send = async (m: JSONRPCMessage) => {
    await send(m);
    if (!("method" in m) && "id" in m && m.id !== undefined && pending.delete(m.id)) closeWhenIdle();
  };
  onStdinEnd(() => {
    ended = true;
    closeWhenIdle();
  });
  await closed;
}
