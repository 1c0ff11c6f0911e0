/**
 * Files a proposal from inside a workflow transaction (SPEC §1 item 4,
 * §6): the same screen seam, score and `propose` audit row as
 * `src/review/file-proposal.ts`, but in the caller's transaction so the
 * proposal commits with the run change that caused it, and without the
 * pending-duplicate shortcut (two customers may be sent the same words).
 */
import type { AuditService } from "../audit/audit-service.ts";
import { xxh3Hex } from "../core/content-hash.ts";
import type { Origin } from "../core/types.ts";
import { GLOBAL_DOMAIN } from "../domains/domain-name.ts";
import { screenWrite } from "../ingest/screen-write.ts";
import type { InjectionPolicy } from "../config/config.ts";
import { scoreProposal } from "../review/score-proposal.ts";
import type { Exec } from "../store/db.ts";
import { insertProposal } from "../store/proposals.ts";

/** A workflow proposal. */
export interface GovernedProposal {
  door: string;
  content: string;
  title?: string;
  kind?: "memory" | "capture";
  origin: Origin;
  /** Provenance source (a case reference for case bodies: the solve signal reads it back). */
  source?: string;
  sourcePrompt?: string;
}

/** Screens (refusing only where `INJECTION_POLICY` refuses), scores and inserts; returns the id and the screen verdict. */
export async function fileGovernedProposal(
  tx: Exec,
  d: { audit: AuditService; policy: InjectionPolicy; now: string },
  p: GovernedProposal,
): Promise<{ id: number; verdict: string }> {
  const verdict = screenWrite(d.policy, p.content, p.title).result;
  const contentHash = await xxh3Hex(p.content);
  const scored = scoreProposal({ text: p.title ? `${p.title}\n${p.content}` : p.content, screen: verdict, origin: p.origin });
  const id = await insertProposal(tx, {
    kind: p.kind ?? "memory", door: p.door, title: p.title, content: p.content, contentHash, domain: GLOBAL_DOMAIN, ingestKind: "memory",
    origin: p.origin, source: p.source, sourcePrompt: p.sourcePrompt, score: scored.score,
    scoreBreakdown: { score: scored.score, components: scored.components },
    screen: { verdict: verdict.verdict, reasons: verdict.reasons, score: verdict.score }, createdAt: d.now,
  });
  await d.audit.append(tx, {
    action: "propose", target: `proposal:${id}`,
    detail: { proposal_id: id, door: p.door, domain: GLOBAL_DOMAIN, content_hash: contentHash, score: scored.score, verdict: verdict.verdict },
  });
  return { id, verdict: verdict.verdict };
}
