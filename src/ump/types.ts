/**
 * Shapes of UMP 1.0 records and capability-token claims (SPEC §2.8, §2.9; UMP
 * notes "Record" and "Capability tokens"). Types only; validation lives in
 * `record.ts`, hashing in `content-hash.ts`, signing in `sign.ts`.
 */

/** The five UMP memory kinds. */
export type UmpKind = "semantic" | "episodic" | "procedural" | "working" | "identity";

/** Who may see a record. */
export type Visibility = "private" | "shared" | "public";

/** Lifecycle status of a record. */
export type RecordStatus = "active" | "candidate" | "tombstoned";

/** Kind of actor that asserted a record (W3C PROV agent type). */
export type ActorKind = "user" | "agent" | "model" | "import" | "scan";

/** Capability verbs; there is deliberately no admin verb (SPEC §2.9). */
export type Verb = "read" | "write" | "derive" | "export";

/** Record scope; `owner` is a DID. */
export interface UmpScope {
  owner: string;
  user?: string;
  project?: string;
  agent?: string;
  session?: string;
  visibility: Visibility;
}

/** Bi-temporal time block; `valid_to: null` means still valid. */
export interface UmpTime {
  created: string;
  observed: string;
  valid_from: string;
  valid_to: string | null;
}

/** Engine-facing lifecycle hints. */
export interface UmpLifecycle {
  confidence?: number;
  salience?: number;
  decay?: string;
  status?: RecordStatus;
}

/** Typed link to a record (`urn:ump:…`) or an entity (`entity:<name>`). */
export interface UmpRelation {
  type: string;
  target: string;
}

/** W3C PROV-aligned provenance, required at L2+. */
export interface UmpProvenance {
  actor: string;
  actor_kind: ActorKind;
  method: string;
  source?: { ref: string; provider?: string };
  evidence?: { ref: string; weight: number }[];
}

/** Consent policy carried in the record. */
export interface UmpConsent {
  retention?: string;
  exportable?: boolean;
  redact?: string[];
}

/** Integrity block; `signature` and `signer` only when an operator key is configured (SPEC §2.8). */
export interface UmpIntegrity {
  content_hash: string;
  signature?: string;
  signer?: string;
}

/** A full UMP 1.0 record. Extension members (same major version) are preserved as-is. */
export interface UmpRecord {
  ump: string;
  id: string;
  kind: UmpKind;
  title?: string;
  body: { text: string; structured?: unknown; [extra: string]: unknown };
  scope: UmpScope;
  time: UmpTime;
  lifecycle?: UmpLifecycle;
  supersedes?: string[];
  superseded_by?: string[];
  relations?: UmpRelation[];
  provenance?: UmpProvenance;
  consent?: UmpConsent;
  integrity?: UmpIntegrity;
  [extra: string]: unknown;
}

/** Scope restriction a capability token may carry; every present key must equal the record's. */
export interface TokenScope {
  owner?: string;
  project?: string;
  agent?: string;
  visibility?: Visibility;
}

/** Claims of a `umpcap.` capability token. */
export interface CapabilityClaims {
  v: string;
  iss: string;
  aud?: string;
  verbs: Verb[];
  scope: TokenScope;
  nbf?: string;
  exp: string;
  jti: string;
}
