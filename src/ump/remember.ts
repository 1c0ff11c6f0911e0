/**
 * `POST /ump/remember` (SPEC §4.9, §2.8): validates a partial record,
 * refuses a foreign `scope.owner` (403 `forbidden_scope`) and a supplied
 * integrity block that does not verify (400 `signature_invalid`), then
 * stores it: `created`, or `merged` when the same memory is already there.
 * A write the injection screen refuses answers `rejected` (a value, not an
 * error). Under `review` posture the record is filed as a proposal instead
 * of memory, and the result says so.
 */
import { isMemoryError, MemoryError } from "../core/errors.ts";
import { checkOwner, defaultOwner, isOperator, requireVerb, type UmpActor } from "./actor.ts";
import { normaliseRecord } from "./record.ts";
import { sealRecord } from "./record-rows.ts";
import { verifyRecordAsync } from "./sign.ts";
import { ORIGIN, storeRecord } from "./store-record.ts";
import { turnChunkOf } from "./turn-record.ts";
import { GLOBAL_DOMAIN } from "../domains/domain-name.ts";
import type { Carry } from "./carry.ts";
import type { UmpRecord } from "./types.ts";
import type { UmpDeps } from "./ump-deps.ts";

/** The reply of remember (and of each record of an import). */
export interface RememberResult {
  id: string;
  result: "created" | "merged" | "rejected";
  /** Set when the screen quarantined the text: stored, excluded from recall until released. */
  flagged?: true;
  /** Set when the screen refused the text. */
  error?: { code: string; message: string };
  /** Set under `review` posture: the record became a pending proposal, not memory. */
  review?: { status: "pending"; proposal_id: number };
}

/** Options of `prepareRecord`. */
export interface PrepareOptions {
  /** Refuse a foreign owner (remember, token imports); the operator's file imports keep owners. */
  enforceOwner: boolean;
  actorKind?: "agent" | "import";
  method?: string;
}

/** Validates, checks consent and integrity, and seals one incoming record. */
export async function prepareRecord(d: UmpDeps, actor: UmpActor, input: unknown, o: PrepareOptions): Promise<UmpRecord> {
  const scope = (input as { scope?: { owner?: unknown } } | null)?.scope;
  if (o.enforceOwner && typeof scope === "object" && scope !== null) checkOwner(actor, scope.owner);
  const record = normaliseRecord(input, {
    now: d.clock(), owner: defaultOwner(actor), actor: actor.subject, actorKind: o.actorKind ?? "agent", method: o.method ?? "remember",
  });
  if ((input as { integrity?: unknown }).integrity !== undefined) {
    const v = await verifyRecordAsync(input as object);
    if (!v.ok) throw new MemoryError("signature_invalid", "The supplied integrity block does not verify", { reason: v.reason });
  }
  requireVerb(actor, "write", record.scope);
  return sealRecord(record, await d.keys(), d.didOf);
}

/** Remembers one record. */
export async function remember(d: UmpDeps, actor: UmpActor, input: unknown): Promise<RememberResult> {
  const record = await prepareRecord(d, actor, input, { enforceOwner: true });
  const review = await proposeIfReview(d, record, "/ump/remember");
  if (review) return { id: record.id, result: "created", review };
  return await storeOrReject(d, record, "memory", "ump_remember", actor);
}

/** Stores a prepared record, turning a screen refusal into `rejected`. */
export async function storeOrReject(
  d: UmpDeps, record: UmpRecord, source: "memory" | "structured" | "vault", action: string, actor: UmpActor, carry?: Carry,
): Promise<RememberResult> {
  try {
    const out = await storeRecord(d, record, { source, action, actor: actor.subject, ...(carry ? { carry, trustRelease: isOperator(actor) } : {}) });
    if (out.result === "created") d.events.emit({ kind: "created", id: out.id, scope: record.scope });
    return out.flagged ? { id: out.id, result: out.result, flagged: true } : { id: out.id, result: out.result };
  } catch (e) {
    if (isMemoryError(e) && e.code === "content_rejected") return { id: record.id, result: "rejected", error: { code: e.code, message: e.message } };
    throw e;
  }
}

/**
 * SPEC §1 write posture: `/ump/remember`, `/ump/revise` and `/ingest?format=ump`
 * are posture-carrying doors (src/review/route-write.ts). Returns the filed
 * proposal under `review`, undefined when the write goes to memory.
 */
export async function proposeIfReview(d: UmpDeps, record: UmpRecord, door: string): Promise<{ status: "pending"; proposal_id: number } | undefined> {
  const gate = d.write.review;
  if (!gate) {
    // Fail closed: writing directly would ignore the operator's posture.
    if (d.posture === "review") throw new MemoryError("review_unavailable", "Write posture is review but no review queue is available; nothing was written", undefined, 503);
    return undefined;
  }
  if (gate.route(door) !== "proposal") return undefined;
  // A conversation turn is filed as the chunk the open door would store (issue 24): window, identity hash, labels.
  const turn = await turnChunkOf(d.db.client, record, GLOBAL_DOMAIN);
  const p = await gate.file({
    content: turn?.content ?? record.body.text, title: turn?.title ?? record.title, door, ingestKind: "memory",
    origin: ORIGIN[record.provenance?.actor_kind ?? "agent"] ?? "agent", owner: record.scope.owner, source: `ump:${record.id}`.slice(0, 64),
    umpRecord: { id: record.id, json: JSON.stringify(record) },
    ...(turn ? { contentHash: turn.contentHash, meta: { conversation: turn.conversation } } : {}),
  });
  return { status: "pending", proposal_id: p.id };
}
