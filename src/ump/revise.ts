/**
 * `POST /ump/revise` (SPEC §3, §4.9; UMP notes): `{id, patch}` →
 * `{id: <new>, supersedes: [<old>]}`. The patch is a JSON Merge Patch
 * (RFC 7386) over the current record; `id`, `integrity`, `supersedes`,
 * `superseded_by` and `ump` cannot be patched. The new version is valid from
 * now (or the patch's `time.valid_from`); the old one gets `time.valid_to`
 * and `superseded_by`, is signed again, and stays readable by id and by
 * recall with a past `valid_at` (bi-temporal). Both rows and the audit row
 * commit in one transaction; a version already superseded answers 409.
 */
import { MemoryError } from "../core/errors.ts";
import { getChunks } from "../store/chunks.ts";
import { getUmpRow } from "../store/ump-records.ts";
import { checkOwner, requireRead, requireVerb, type UmpActor } from "./actor.ts";
import { assertIntact, loadRecord } from "./load-record.ts";
import { normaliseRecord } from "./record.ts";
import { sealRecord } from "./record-rows.ts";
import { proposeIfReview } from "./remember.ts";
import { storeRecord } from "./store-record.ts";
import type { UmpRecord } from "./types.ts";
import type { UmpDeps } from "./ump-deps.ts";
import { parseWith } from "../core/schema.ts";
import { UmpReviseBody, type UmpReviseInput } from "./ump-schema.ts";
import { routedReader } from "../store/domain-dbs.ts";

const FIXED = ["id", "integrity", "supersedes", "superseded_by", "ump"];

/** RFC 7386 JSON Merge Patch. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== "object" || patch === null || Array.isArray(patch)) return structuredClone(patch);
  const out: Record<string, unknown> = typeof target === "object" && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** The reply of revise; `review` is set under review posture (the new version is a pending proposal). */
export interface ReviseResult {
  id: string;
  supersedes: string[];
  review?: { status: "pending"; proposal_id: number };
}

/** Revises one record. */
export async function revise(d: UmpDeps, actor: UmpActor, raw: UmpReviseInput): Promise<ReviseResult> {
  const { id: oldId, patch } = parseWith(UmpReviseBody, raw);
  const fixed = FIXED.filter((k) => k in patch);
  if (fixed.length) throw new MemoryError("invalid_record", `patch cannot set ${fixed.join(", ")}`, { fields: fixed });
  const { row, record: old } = await loadRecord(routedReader(d.db), oldId);
  if (row.status === "tombstoned") throw new MemoryError("not_found", "record not found", { id: oldId });
  requireRead(actor, old.scope);
  requireVerb(actor, "write", old.scope);
  await assertIntact(old);
  if (old.time.valid_to !== null || old.superseded_by?.length) {
    throw new MemoryError("conflict", "The record is already superseded; revise its current version", { superseded_by: old.superseded_by ?? [] }, 409);
  }
  const patchScope = (patch.scope ?? {}) as { owner?: unknown };
  if (patchScope.owner !== undefined && patchScope.owner !== old.scope.owner) checkOwner(actor, patchScope.owner);

  const now = d.clock().toISOString();
  const { id: _i, integrity: _g, supersedes: _s, superseded_by: _b, ...base } = old;
  const merged = mergePatch(base, patch) as Record<string, unknown>;
  const patchTime = (typeof patch.time === "object" && patch.time !== null ? patch.time : {}) as Record<string, unknown>;
  merged.time = { created: now, observed: patchTime.observed ?? now, valid_from: patchTime.valid_from ?? now, valid_to: null };
  if (patch.provenance === undefined) merged.provenance = { ...(old.provenance ?? {}), actor: actor.subject, method: "revise" };
  const lifecycle = (merged.lifecycle ?? {}) as Record<string, unknown>;
  if (lifecycle.status === "tombstoned") throw new MemoryError("invalid_record", "revise cannot tombstone; use forget", { field: "lifecycle.status" });
  merged.supersedes = [oldId];
  const next = normaliseRecord(merged, { now: d.clock(), owner: old.scope.owner, actor: actor.subject, method: "revise" });
  requireVerb(actor, "write", next.scope);
  const seed = await d.keys();
  const sealedNew = sealRecord(next, seed, d.didOf);
  // SPEC §1 write posture: under review the new version is filed as a proposal; the old one stays current.
  const review = await proposeIfReview(d, sealedNew, "/ump/revise");
  if (review) return { id: sealedNew.id, supersedes: [oldId], review };
  // The old version is valid until the new one is (never before its own start).
  const until = Math.max(Date.parse(sealedNew.time.valid_from), Date.parse(old.time.valid_from));
  const retired: UmpRecord = sealRecord({
    ...old, time: { ...old.time, valid_to: new Date(until).toISOString() },
    superseded_by: [...(old.superseded_by ?? []), sealedNew.id],
  }, seed, d.didOf);
  // The new version stays in the domain of the version it replaces (a revise never moves a fact out of its domain).
  const domain = (await getChunks(routedReader(d.db), [row.chunkId]))[0]?.domain;
  const out = await storeRecord(d, sealedNew, {
    source: "memory", action: "ump_revise", actor: actor.subject, alsoUpdate: [retired], ...(domain ? { domain } : {}),
    guard: async (tx) => {
      const current = await getUmpRow(tx, oldId);
      if (!current || current.status === "tombstoned") throw new MemoryError("not_found", "record not found", { id: oldId });
      if (current.validTo !== undefined) throw new MemoryError("conflict", "The record is already superseded; revise its current version", undefined, 409);
    },
  });
  if (out.result !== "created") throw new MemoryError("conflict", "An identical version already exists", { id: out.id }, 409);
  d.events.emit({ kind: "revised", id: sealedNew.id, scope: sealedNew.scope });
  d.events.emit({ kind: "superseded", id: oldId, scope: old.scope });
  return { id: sealedNew.id, supersedes: [oldId] };
}
