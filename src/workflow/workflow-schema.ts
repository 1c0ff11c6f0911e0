/**
 * The workflow and case bodies (SPEC §4.11: every body "not shown", so each shape is this project's choice) as
 * schemas that validate and type. A field that fails answers 400 `invalid_request` naming it, as `field()` and
 * `objectBody()` in deps.ts do; a case envelope's own fields are checked by `parseCrmCase` (`case_invalid`).
 */
import { z } from "zod";
import { body, ignoredUnless, specError } from "../core/schema.ts";
import { CASE_REF } from "./crm-case.ts";
import { CHANNEL_KINDS } from "./deps.ts";

/** Longest channel text (an inbound message or a drafted reply). */
export const MAX_TEXT = 10_000;
/** The complaint lifecycle's actions. */
export const LIFECYCLE_ACTIONS = ["contact_attempt", "customer_confirmed", "closed_solved", "merged_away", "reopened"] as const;

const ORIGIN = /^[a-z][a-z0-9_.:-]{0,63}$/;
const PLUGIN = /^[a-z][a-z0-9_.-]{0,63}$/;
const HEX64 = /^[0-9a-f]{64}$/i;
const choice = { "x-cairn-choice": true };

/** A required string of 1 to `max` characters (deps.ts `field`). */
function text(name: string, max: number) {
  return z.string({ error: specError("invalid_request", `${name} must be a non-empty string`, { field: name }, 400) })
    .refine((v) => v.trim() !== "", { error: specError("invalid_request", `${name} must be a non-empty string`, { field: name }, 400), abort: true })
    .refine((v) => v.length <= max, { error: specError("invalid_request", `${name} must be at most ${max} characters`, { field: name, max }, 400) });
}
const matching = (name: string, re: RegExp, rule: string) => ({ ok: (v: string) => re.test(v), error: specError("invalid_request", `${name} must ${rule}`, { field: name }, 400) });
const notObject = (name: string) => specError("invalid_request", `${name} must be a JSON object`, { field: name }, 400);

const caseRef = matching("state_json.case_ref", CASE_REF, "be crm:{source}:{org}:{id}");
const origin = matching("state_json.origin", ORIGIN, "match ^[a-z][a-z0-9_.:-]{0,63}$");
const channelKind = { error: specError("invalid_request", `state_json.channel.kind must be one of ${CHANNEL_KINDS.join(", ")}`, { field: "state_json.channel.kind" }, 400) };

/** `POST /workflow/runs`: `state_json` is stored whole, so its other members are kept. */
export const OpenRunBody = body({
  state_json: z.looseObject({
    case_ref: text("case_ref", 400).refine(caseRef.ok, { error: caseRef.error }).meta({ description: "crm:{source}:{org}:{id}" }),
    origin: text("origin", 64).refine(origin.ok, { error: origin.error }),
    channel: z.looseObject({
      kind: text("kind", 16).refine((k) => (CHANNEL_KINDS as readonly string[]).includes(k), channelKind).meta({ enum: [...CHANNEL_KINDS] }),
      conversation_ref: text("conversation_ref", 256),
    }, { error: notObject("state_json.channel") }).optional(),
  }, { error: notObject("state_json") }),
}, { error: notObject("body"), meta: { id: "OpenWorkflowRun", ...choice } });

/** What `POST /workflow/runs` takes. */
export type OpenRunInput = z.input<typeof OpenRunBody>;

/** `POST /workflow/runs/{id}/complaint/lifecycle`. */
export const LifecycleBody = body({
  action: z.enum(LIFECYCLE_ACTIONS, {
    error: specError("invalid_request", `action must be one of ${LIFECYCLE_ACTIONS.join(", ")}`, { field: "action", allowed: [...LIFECYCLE_ACTIONS] }, 400),
  }),
}, { error: notObject("body"), meta: { id: "ComplaintLifecycleRequest", ...choice } });

/** What the lifecycle route takes. */
export type LifecycleInput = z.input<typeof LifecycleBody>;

/** `POST /workflow/runs/{id}/status-ref`. */
export const StatusRefBody = body({
  action: z.literal("mint", { error: specError("invalid_request", "action must be mint", { field: "action", allowed: ["mint"] }, 400) }),
}, { error: notObject("body"), meta: { id: "StatusRefRequest", ...choice } });

/** What the status-ref route takes. */
export type StatusRefInput = z.input<typeof StatusRefBody>;

/** `POST /workflow/runs/{id}/channel-out`: the reply text, filed in the review gate. */
export const ChannelOutBody = body({ text: text("text", MAX_TEXT).meta({ maxLength: MAX_TEXT }) }, { error: notObject("body"), meta: { id: "ChannelOutRequest", ...choice } });

/** What the channel-out route takes. */
export type ChannelOutInput = z.input<typeof ChannelOutBody>;

const noteText = specError("invalid_request", "note text must be 1 to 10,000 characters", { field: "text" }, 400);

/** `POST /workflow/runs/{id}/notes`. */
export const NoteBody = body({
  text: z.string({ error: noteText }).refine((v) => v.trim() !== "" && v.length <= 10_000, { error: noteText }).meta({ maxLength: 10_000 }),
  // Anything but true records a plain note (lenient since the route's first version).
  reask: ignoredUnless(z.boolean()).meta({ type: "boolean", description: "true records a re-ask" }),
}, { meta: { id: "WorkflowNoteRequest", ...choice } });

/** What the notes route takes. */
export type NoteInput = z.input<typeof NoteBody>;

const caseOrigin = { ok: (v: string) => ORIGIN.test(v), error: specError("invalid_request", "origin must match ^[a-z][a-z0-9_.:-]{0,63}$", { field: "origin" }, 400) };

/** `POST /workflow/cases`: a CrmCase envelope (SPEC §2.11), checked field by field by `parseCrmCase`. */
export const CaseBody = body({
  // A non-string origin means the operator (lenient since the route's first version).
  origin: ignoredUnless(z.string().refine(caseOrigin.ok, { error: caseOrigin.error })).meta({ type: "string", description: "Default operator" }),
  case: z.record(z.string(), z.unknown(), { error: specError("case_invalid", "case: must be an object", { field: "case" }, 400) })
    .meta({ description: "A CrmCase (SPEC §2.11); case_invalid names the first bad field" }),
}, { meta: { id: "CaseEnvelopeRequest", ...choice } });

/** What `POST /workflow/cases` takes. */
export type CaseInput = z.input<typeof CaseBody>;

const plugin = { ok: (v: string) => PLUGIN.test(v), error: specError("invalid_request", "plugin must match ^[a-z][a-z0-9_.-]{0,63}$", { field: "plugin" }, 400) };
const hex = { ok: (v: string) => HEX64.test(v), error: specError("invalid_request", "evidence.bridge_config_sha256 must be 64 hex characters", { field: "evidence.bridge_config_sha256" }, 400) };

/** `POST /workflow/plugins/mount`. */
export const MountBody = body({
  plugin: text("plugin", 64).refine(plugin.ok, { error: plugin.error }),
  kind: text("kind", 16).meta({ description: "A channel kind with a bridge config (404 otherwise)" }),
  evidence: z.object({
    bridge_config_sha256: text("bridge_config_sha256", 64).refine(hex.ok, { error: hex.error }).transform((v) => v.toLowerCase()),
  }, { error: notObject("evidence") }),
}, { error: notObject("body"), meta: { id: "PluginMountRequest", ...choice } });

/** What the plugin-mount route takes. */
export type MountInput = z.input<typeof MountBody>;

/** `POST /webhooks/channel/{kind}`: one inbound message, deduplicated by `external_id`. */
export const InboundBody = body({
  envelope: z.object({
    conversation_ref: text("conversation_ref", 256),
    text: text("text", MAX_TEXT).meta({ maxLength: MAX_TEXT }),
    external_id: text("external_id", 256).meta({ description: "The channel's message id; a repeat answers duplicate" }),
  }, { error: notObject("envelope") }),
}, { error: notObject("body"), meta: { id: "ChannelInbound", ...choice } });

/** What the inbound channel webhook takes. */
export type InboundInput = z.input<typeof InboundBody>;
