/**
 * What the UMP operations need from the composition root, including the
 * governance erasure executor hard forget goes through.
 */
import type { AuditService } from "../audit/audit-service.ts";
import type { WritePosture } from "../config/config.ts";
import type { WriteContext } from "../ingest/context.ts";
import type { RecallEngine } from "../recall/recall-engine.ts";
import type { Db, Exec } from "../store/db.ts";
import type { UmpEvents } from "./events.ts";
import type { UmpIndex } from "./ump-index.ts";

/**
 * Governance seams, wired in `memory.ts` (`eraseInTx` from src/erasure/erase-in-tx.ts).
 * The write posture needs none: it is the review gate on the write context (`write.review`).
 */
export interface GovernanceSeams {
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
