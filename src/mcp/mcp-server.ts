/**
 * The MCP binding (SPEC §4.9, §1 item 7): tools `ump.capabilities`,
 * `ump.remember`, `ump.get`, `ump.recall`, `ump.revise`, `ump.forget`,
 * `ump.feedback`, `ump.audit`, `ump.audit.verify`, each taking exactly the
 * HTTP request body (or path id) and returning exactly the HTTP response
 * body, because both call the same `memory.ump` operation. Errors come back
 * as tool errors carrying the SPEC §7 envelope. Records are also resources
 * `ump://{project}/{id}` (`_` for a record with no project).
 *
 * This uses the SDK's low-level `Server` with plain JSON Schemas: the
 * high-level `McpServer` wants zod schemas, which would add a dependency and
 * a second validation layer in front of the service's own.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema, ErrorCode, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema, McpError, ReadResourceRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { MemoryError } from "../core/errors.ts";
import { requireCleanText } from "../core/text-rule.ts";
import { VERSION } from "../core/version.ts";
import type { Memory } from "../memory.ts";
import type { UmpActor } from "../ump/actor.ts";
import { toErrorResponse } from "../http/status.ts";
import { UMP_TOOLS } from "./tools.ts";
import type { UmpAuditInput, UmpFeedbackInput, UmpForgetInput, UmpRecallInput, UmpReviseInput } from "../ump/ump-schema.ts";

/**
 * Tool naming: the spec's dotted names (`ump.remember`), or `underscore` (`ump_remember`) for model APIs that accept
 * only `[A-Za-z0-9_-]` in tool names (issue 21).
 */
export type ToolNames = "dotted" | "underscore";

/** A tool's name under a naming. */
export function toolName(dotted: string, names: ToolNames = "dotted"): string {
  return names === "underscore" ? dotted.replaceAll(".", "_") : dotted;
}

/** Builds the MCP server for one memory and caller. */
export function createMcpServer(memory: Memory, actor: () => Promise<UmpActor>, o: { toolNames?: ToolNames } = {}): Server {
  const names = o.toolNames ?? "dotted";
  const server = new Server({ name: "cairn", version: VERSION }, { capabilities: { tools: {}, resources: {} } });
  const ump = memory.ump;
  // Tool arguments are untrusted JSON: each service parses them with its request schema (src/ump/ump-schema.ts),
  // so the casts only name the shape the service checks.
  const run: Record<string, (a: UmpActor, args: Record<string, unknown>) => Promise<unknown>> = {
    "ump.capabilities": () => ump.capabilities(),
    "ump.remember": (a, args) => ump.remember(a, args),
    "ump.get": (a, args) => ump.get(a, args.id),
    "ump.recall": (a, args) => ump.recall(a, args as UmpRecallInput),
    "ump.revise": (a, args) => ump.revise(a, args as UmpReviseInput),
    "ump.forget": (a, args) => ump.forget(a, args as UmpForgetInput),
    "ump.feedback": (a, args) => ump.feedback(a, args as UmpFeedbackInput),
    "ump.audit": (a, args) => ump.audit(a, args as UmpAuditInput),
    "ump.audit.verify": (a) => ump.auditVerify(a),
  };

  const byName = new Map(Object.entries(run).map(([dotted, fn]) => [toolName(dotted, names), fn]));
  const tools = UMP_TOOLS.map((t) => ({ ...t, name: toolName(t.name, names) }));
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const fn = byName.get(req.params.name);
    // MCP spec (Tools, "Error Handling"): an unknown tool is a protocol error, JSON-RPC -32602 Invalid params, not a tool result.
    if (!fn) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${req.params.name}`);
    try {
      const args = (req.params.arguments ?? {}) as Record<string, unknown>;
      // The text-field rule (src/core/text-rule.ts), as at the HTTP door: NUL or a lone surrogate is a 400 naming the argument.
      requireCleanText(args);
      const result = await fn(await actor(), args);
      return { content: [{ type: "text", text: JSON.stringify(result) }], structuredContent: result as Record<string, unknown> };
    } catch (e) {
      const { status, body } = toErrorResponse(e);
      const payload = { ...body, status };
      return { isError: true, content: [{ type: "text", text: JSON.stringify(payload) }], structuredContent: payload };
    }
  });

  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [{ uriTemplate: "ump://{project}/{id}", name: "UMP record", description: "A UMP 1.0 record as JSON", mimeType: "application/json" }],
  }));
  server.setRequestHandler(ListResourcesRequestSchema, async (req) => {
    const page = await ump.browse(await actor(), { cursor: req.params?.cursor, limit: 100 });
    return {
      resources: page.items.map((r) => ({ uri: resourceUri(r.project, r.id), name: r.name, mimeType: "application/json" })),
      ...(page.next ? { nextCursor: page.next } : {}),
    };
  });
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const m = /^ump:\/\/([^/]+)\/(urn:ump:[a-z2-7]+)$/.exec(req.params.uri);
    if (!m) throw new MemoryError("not_found", "Unknown resource");
    const got = await ump.get(await actor(), m[2]);
    if ((got.record.scope.project ?? "_") !== decodeURIComponent(m[1])) throw new MemoryError("not_found", "Unknown resource");
    return { contents: [{ uri: req.params.uri, mimeType: "application/json", text: JSON.stringify(got.record) }] };
  });
  return server;
}

/** `ump://{project}/{id}`; `_` stands for no project. */
export function resourceUri(project: string | undefined, id: string): string {
  return `ump://${encodeURIComponent(project ?? "_")}/${id}`;
}
