/**
 * What the UMP operations need from the composition root.
 */
import type { AuditService } from "../audit/audit-service.ts";
import type { WritePosture } from "../config/config.ts";
import type { WriteContext } from "../ingest/context.ts";
import type { RecallEngine } from "../recall/recall-engine.ts";
import type { Db } from "../store/db.ts";
import type { UmpEvents } from "./events.ts";
import type { UmpIndex } from "./ump-index.ts";

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
  /** Registers a domain when absent (the operator's import of another store's records, SPEC §4.2). */
  ensureDomain?: (name: string) => Promise<void>;
}
