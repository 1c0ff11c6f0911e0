/**
 * Who is calling a UMP operation, and what that lets them do (SPEC §4.9
 * Consent, §5 items 5–6). Three kinds of caller:
 *
 * - `operator`: the operator bearer, the local loopback caller with no
 *   credential, the MCP stdio server. Every verb, every scope. Identified by
 *   the operator's `did:key` when a key is configured; without a key there
 *   is no identity to compare an owner with, so `scope.owner` is accepted as
 *   given (and defaults to `did:cairn:local`).
 * - `token`: a capability token. Its subject is its `aud` (the peer it was
 *   minted for), or its issuer (the operator) when it names no audience.
 *   Verbs and scope come from the token (`authorizeOp`).
 * - `principal`: a caller the auth layer authenticated (`c.get("principal")`),
 *   identified by its `subject`; the `admin` role acts as the operator.
 *
 * A non-operator reads a record when it owns it or the record is not
 * `private`; reading someone else's record crosses a visibility boundary,
 * so `consent.redact` paths are stripped (SPEC §2.8 notes).
 */
import { MemoryError } from "../core/errors.ts";
import { authorizeOp } from "./capability-token.ts";
import type { CapabilityClaims, Verb } from "./types.ts";

/** Owner of records written when there is no identity (no key, no principal). */
export const LOCAL_OWNER = "did:cairn:local";

/** A UMP caller. */
export type UmpActor =
  | { kind: "operator"; subject: string; identified: boolean; piiRead: boolean }
  | { kind: "token"; subject: string; claims: CapabilityClaims; piiRead: boolean }
  | { kind: "principal"; subject: string; roles: readonly string[]; piiRead: boolean };

/** Scope members an authorization decision looks at. */
export interface ScopeLike {
  owner?: unknown;
  project?: unknown;
  agent?: unknown;
  visibility?: unknown;
}

/** The operator, identified by `did` when a key is configured. */
export function operatorActor(did: string | undefined, piiRead = false): UmpActor {
  return { kind: "operator", subject: did ?? LOCAL_OWNER, identified: did !== undefined, piiRead };
}

/** True for the operator (or an admin principal): every scope, no redaction boundary. */
export function isOperator(a: UmpActor): boolean {
  return a.kind === "operator" || (a.kind === "principal" && a.roles.includes("admin"));
}

/** `scope.owner` given to a record that names none (SPEC §4.9: the writer owns it). */
export function defaultOwner(a: UmpActor): string {
  return a.subject;
}

/** SPEC §4.9: a declared `scope.owner` must equal the authenticated principal, else 403 `forbidden_scope`. */
export function checkOwner(a: UmpActor, owner: unknown): void {
  if (owner === undefined) return;
  if (a.kind === "operator" && !a.identified) return; // no identity to compare with
  if (owner !== a.subject) {
    throw new MemoryError("forbidden_scope", "scope.owner must be the authenticated principal", { owner: String(owner), principal: a.subject });
  }
}

/** Throws 403 `forbidden_scope` unless a token caller was granted `verb` (scope is checked per record). */
export function requireGrant(a: UmpActor, verb: Verb): void {
  if (a.kind === "token" && !a.claims.verbs.includes(verb)) {
    throw new MemoryError("forbidden_scope", `The capability token does not grant "${verb}"`, { verb, granted: a.claims.verbs });
  }
}

/** Throws 403 `forbidden_scope` unless the caller may use `verb` on a record with this scope. */
export function requireVerb(a: UmpActor, verb: Verb, scope: ScopeLike): void {
  if (a.kind !== "token") return;
  requireGrant(a, verb);
  if (!authorizeOp(a.claims, verb, scope as Record<string, unknown>)) {
    throw new MemoryError("forbidden_scope", "The record is outside the capability token's scope", { verb, token_scope: a.claims.scope });
  }
}

/** True when the caller may use `verb` on a record with this scope (token verb and scope, then visibility). */
export function canUse(a: UmpActor, verb: Verb, scope: ScopeLike): boolean {
  if (isOperator(a)) return true;
  if (a.kind === "token" && !authorizeOp(a.claims, verb, scope as Record<string, unknown>)) return false;
  return scope.owner === a.subject || scope.visibility !== "private";
}

/** True when the caller may read a record with this scope. */
export function canRead(a: UmpActor, scope: ScopeLike): boolean {
  return canUse(a, "read", scope);
}

/** Throws `forbidden_scope` unless the caller may read the record. */
export function requireRead(a: UmpActor, scope: ScopeLike): void {
  requireVerb(a, "read", scope);
  if (!canRead(a, scope)) throw new MemoryError("forbidden_scope", "The record is private to its owner");
}

/** True when serving this record to the caller crosses a visibility boundary (redact applies). */
export function crossesBoundary(a: UmpActor, owner: unknown): boolean {
  return !isOperator(a) && owner !== a.subject;
}

/** Operations that read across all records (audit) need an unscoped caller. */
export function requireUnscoped(a: UmpActor, verb: Verb): void {
  if (a.kind === "token") {
    requireGrant(a, verb);
    if (Object.keys(a.claims.scope).length > 0) throw new MemoryError("forbidden_scope", "The audit log spans every scope; use an unscoped token");
  } else if (a.kind === "principal" && !isOperator(a)) {
    throw new MemoryError("forbidden_scope", "The audit log is readable by the operator only");
  }
}
