/**
 * The MCP tool list (SPEC §4.9): names and JSON Schemas of the arguments,
 * which are the HTTP request bodies of the same operations. The service
 * validates; the schemas describe, they do not restrict more than it does.
 */

const scope = {
  type: "object",
  properties: {
    owner: { type: "string", description: "A DID; must be the authenticated principal when given" },
    user: { type: "string" }, project: { type: "string" }, agent: { type: "string" }, session: { type: "string" },
    visibility: { enum: ["private", "shared", "public"] },
  },
};
const id = { type: "string", description: "urn:ump:<base32> record id" };

/** The nine tools. */
export const UMP_TOOLS = [
  { name: "ump.capabilities", description: "The UMP capabilities document (version, conformance, kinds, bindings, limits).", inputSchema: { type: "object", properties: {} } },
  {
    name: "ump.remember",
    description: "Remember a (partial) UMP record: {kind, body:{text}, scope?, provenance?, ...}. Returns {id, result: created|merged|rejected}.",
    inputSchema: {
      type: "object",
      properties: {
        ump: { type: "string" }, kind: { enum: ["semantic", "episodic", "procedural", "working", "identity"] }, title: { type: "string" },
        body: { type: "object", properties: { text: { type: "string" }, structured: {} }, required: ["text"] },
        scope, time: { type: "object" }, lifecycle: { type: "object" }, relations: { type: "array" }, provenance: { type: "object" },
        consent: { type: "object" }, integrity: { type: "object" },
      },
      required: ["kind", "body"],
    },
  },
  { name: "ump.get", description: "Fetch one record by id (integrity verified before return).", inputSchema: { type: "object", properties: { id }, required: ["id"] } },
  {
    name: "ump.recall",
    description: "Recall records: {query, scope?, filter?:{kind?, valid_at?}, limit?} → {results:[{record, score, signals}]}.",
    inputSchema: {
      type: "object",
      properties: {
        ump: { type: "string" }, query: { type: "string" }, scope,
        filter: { type: "object", properties: { kind: {}, valid_at: { type: "string" } } }, limit: { type: "integer", minimum: 1, maximum: 50 },
      },
      required: ["query"],
    },
  },
  {
    name: "ump.revise",
    description: "Revise a record with a JSON Merge Patch: {id, patch} → {id: <new>, supersedes: [<old>]}. The old version stays readable.",
    inputSchema: { type: "object", properties: { id, patch: { type: "object" } }, required: ["id", "patch"] },
  },
  {
    name: "ump.forget",
    description: "Forget a record and its lineage: {id, reason?, hard?} → {result: tombstoned|erased}.",
    inputSchema: { type: "object", properties: { id, reason: { type: "string" }, hard: { type: "boolean" } }, required: ["id"] },
  },
  {
    name: "ump.feedback",
    description: "Report whether a recalled record was followed, overridden, ignored or contradicted: {id, outcome, session?} → {ok: true}.",
    inputSchema: {
      type: "object",
      properties: { id, outcome: { enum: ["followed", "overridden", "ignored", "contradicted"] }, session: { type: "string" } },
      required: ["id", "outcome"],
    },
  },
  {
    name: "ump.audit",
    description: "Read the hash-chained audit log: {after?, limit?, action?} → {rows, next_after?}.",
    inputSchema: { type: "object", properties: { after: { type: "integer" }, limit: { type: "integer" }, action: { type: "string" } } },
  },
  { name: "ump.audit.verify", description: "Verify the audit chain end to end.", inputSchema: { type: "object", properties: {} } },
];
