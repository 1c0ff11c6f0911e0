/**
 * `cairn mcp`: the MCP server over stdio. It acts as the local operator,
 * or, with `--token`, as that capability token (verbs and scope apply).
 * Nothing but protocol messages goes to stdout.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Memory } from "../memory.ts";
import { onStdinEnd } from "../runtime/platform.ts";
import { operatorActor, type UmpActor } from "../ump/actor.ts";
import { createMcpServer } from "./mcp-server.ts";

/** Serves until stdin closes; resolves when the transport closes. */
export async function runMcpStdio(memory: Memory, o: { token?: string } = {}): Promise<void> {
  const actor = async (): Promise<UmpActor> =>
    o.token ? await memory.ump.authenticate({ bearer: o.token }) : operatorActor(await memory.ump.operatorDid());
  const server = createMcpServer(memory, actor);
  const closed = new Promise<void>((resolve) => (server.onclose = () => resolve()));
  await server.connect(new StdioServerTransport());
  onStdinEnd(() => void server.close());
  await closed;
}
