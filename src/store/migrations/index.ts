/**
 * The migration list. Each feature adds its own file; the list is sorted by
 * version, and the highest version's stamp is the schema stamp this server
 * knows (SPEC §9.8).
 */
import type { Migration } from "./migration.ts";
import { m001Foundation } from "./m001-foundation.ts";
import { m004Graph } from "./m004-graph.ts";
import { m005Audit } from "./m005-audit.ts";
import { m006Ump } from "./m006-ump.ts";
import { m008Governance } from "./m008-governance.ts";
import { m040ReviewUmp } from "./m040-review-ump.ts";
import { m020Parcels } from "./m020-parcels.ts";
import { m030Workflow } from "./m030-workflow.ts";
import { m095ProposalMeta } from "./m095-proposal-meta.ts";
import { m110ConversationSession } from "./m110-conversation-session.ts";
import { m165StoreIdentity } from "./m165-store-identity.ts";
import { m065Claims } from "./m065-claims.ts";
import { m060Kcs } from "./m060-kcs.ts";
import { m050Connectors } from "./m050-connectors.ts";
import { m070ChunkChanges } from "./m070-chunk-changes.ts";
import { m100DomainShards } from "./m100-domain-shards.ts";
import { m172ClaimBatches } from "./m172-claim-batches.ts";

/** All migrations, applied in version order (merges may list them out of order). */
export const MIGRATIONS: readonly Migration[] = [
  m001Foundation,
  // recall (issue 3) migrations go here
  // hygiene (issue 4) migrations go here
  // graph (issue 5) migrations go here
  m004Graph,
  m005Audit,
  // governance (issue 6) migrations go here
  m008Governance,
  // ump (issue 7) migrations go here
  m006Ump,
  // auth (issue 8) migrations go here
  // first-week fixes (issue 22) migrations go here
  m040ReviewUmp,
  // parcels (issue 14)
  m020Parcels,
  // workflow (issue 16)
  m030Workflow,
  // claims loop (issue 17, helper range 65–69)
  m065Claims,
  // knowledge base: KCS articles and translations (issue 17)
  m060Kcs,
  // connectors (issue 15)
  m050Connectors,
  // scale-out (issue 20): the chunk change sequence every node tails
  m070ChunkChanges,
  // recall quality (issue 24): proposals keep their door's chunk metadata
  m095ProposalMeta,
  // recall quality (issue 24, range 110–119): UMP episodic turns find their session's earlier turns
  m110ConversationSession,
  // per-domain databases (issue 20, helper range 100–109)
  m100DomainShards,
  // scale-out (issue 20, helper range 165–169): the store's identity, which a node's boot cache is keyed by
  m165StoreIdentity,
  // claim batches (SPEC §2.12)
  m172ClaimBatches,
].sort((a, b) => a.version - b.version);

/** The schema version and stamp this server knows. */
export const KNOWN_SCHEMA = {
  version: MIGRATIONS[MIGRATIONS.length - 1].version,
  stamp: MIGRATIONS[MIGRATIONS.length - 1].stamp,
};
