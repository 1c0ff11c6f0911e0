/**
 * What the UMP operations need from the composition root, including the
 * seams the governance feature fills when it is present (review posture
 * files a proposal; hard forget goes through its erasure path).
 */
import type { AuditService } from "../audit/audit-service.ts";
import type { WritePosture } from "../config/config.ts";
import type { WriteContext } from "../ingest/context.ts";
import type { RecallEngine } from "../recall/recall-engine.ts";
import type { Origin } from "../core/types.ts";
import type { Db, Exec } from "../store/db.ts";
import type { UmpEvents } from "./events.ts";
import type { UmpIndex } from "./ump-index.ts";

/** A proposal filed instead of a write under `review` posture (the governance `ProposalInput` fields UMP uses). */
export interface ProposalInput {
  content: string;
  title?: string;
  /** The door it came through. */
  door: string;
  ingestKind?: "memory";
  origin?: Origin;
  /** The record's `scope.owner`, carried to the promoted chunk. */
  owner?: string;
  source?: string;
}

/**
 * Governance seams; absent until that feature is wired in `memory.ts`:
 * `fileProposal = (p) => review.file(p)` and `eraseInTx = eraseInTx` (src/erasure/erase-in-tx.ts).
 */
export interface GovernanceSeams {
  /** Files a review proposal; returns its id. */
  fileProposal?(p: ProposalInput): Promise<{ id: number }>;
  /** The governance erasure executor, inside the caller's transaction (tombstones, vectors, relations, proposals, links). */
  eraseInTx?(tx: Exec, o: { chunkIds: number[]; reason: string; now: string }): Promise<unknown>;
}

/** Dependencies of every UMP operation. */
export interface UmpDeps {
  db: Db;
  write: WriteContext;
  clock: () => Date;
  /** The operator seed, re-read on every call so rotation takes effect at once. */
  keys: () => Promise<Uint8Array | undefined>;
  /** `didFromSeed`, cached for the current seed. */
  didOf: (seed: Uint8Array) => string;
  index: UmpIndex;
  events: UmpEvents;
  audit: AuditService;
  recall: RecallEngine;
  posture: WritePosture;
  /** The operator bearer (`AUTH_TOKEN`), which `revoke` refuses to revoke. */
  operatorBearer?: string;
  governance: () => GovernanceSeams;
}
