/**
 * `cairn review list | show | approve | reject` (SPEC §3, §4.3; issue 19):
 * the review gate from the command line, through the same service as
 * `GET /proposals` and `POST /proposals/{id}/approve|reject`. Approval is
 * digest-bound here too: `--digest` is required (400 `digest_required`
 * otherwise) and must be the digest `list` or `show` printed, so what a
 * person read is what is promoted (409 when it changed since).
 */
import { MemoryError } from "../core/errors.ts";
import type { Memory } from "../memory.ts";
import type { ProposalView } from "../review/review-view.ts";
import type { CommandOutcome } from "./governance-commands.ts";

/** Options of `cairn review`. */
export interface ReviewCliOptions {
  status?: string;
  digest?: string;
  supersedes?: number;
  json?: boolean;
}

const ACTIONS = ["list", "show", "approve", "reject"] as const;

const verdict = (p: ProposalView) => (typeof p.screen.verdict === "string" ? p.screen.verdict : "unknown");
const oneLine = (s: string, n: number) => {
  const flat = s.replace(/\s+/g, " ").trim();
  return [...flat].length > n ? `${[...flat].slice(0, n).join("")}…` : flat;
};

function requireId(id: number | undefined, action: string): number {
  if (id === undefined) throw new MemoryError("invalid_request", `review ${action} needs a proposal id`, { field: "id" });
  return id;
}

/** Runs one review action; the CLI reader holds `pii:read` (the local operator). */
export async function reviewCommand(memory: Memory, action: string, id: number | undefined, o: ReviewCliOptions): Promise<CommandOutcome> {
  if (!(ACTIONS as readonly string[]).includes(action)) {
    throw new MemoryError("invalid_request", `review action must be one of ${ACTIONS.join(", ")}`, { field: "action" });
  }
  if (action === "list") {
    const list = await memory.review.list({ status: o.status ?? "pending", limit: 500, piiRead: true });
    if (o.json) return { ok: true, lines: [JSON.stringify(list)] };
    if (list.length === 0) return { ok: true, lines: [`no ${o.status ?? "pending"} proposals`] };
    return {
      ok: true,
      lines: list.flatMap((p) => [
        `#${p.id}  ${p.status}  score ${p.score}  screen ${verdict(p)}  origin ${p.origin ?? "unknown"}  door ${p.door}  ${oneLine(p.title ?? p.content, 60)}`,
        `    digest ${p.content_digest}`,
      ]),
    };
  }
  const pid = requireId(id, action);
  if (action === "show") {
    const p = await memory.review.get(pid, { piiRead: true });
    if (o.json) return { ok: true, lines: [JSON.stringify(p)] };
    return {
      ok: true,
      lines: [
        `#${p.id}  ${p.status}  score ${p.score}  screen ${verdict(p)}  origin ${p.origin ?? "unknown"}  door ${p.door}  domain ${p.domain}`,
        ...(p.title !== undefined ? [`title: ${p.title}`] : []),
        "what will be remembered:", p.content,
        `digest ${p.content_digest}`,
      ],
    };
  }
  if (action === "approve") {
    const r = await memory.review.approve(pid, { digest: o.digest, supersedes: o.supersedes });
    const what = r.promoted_chunk_id !== null ? `memory #${r.promoted_chunk_id}` : `existing memory #${r.chunk_id}`;
    return { ok: true, lines: [o.json ? JSON.stringify(r) : `approved #${r.id} -> ${what}${r.supersedes !== undefined ? ` (supersedes #${r.supersedes})` : ""}`] };
  }
  const r = await memory.review.reject(pid);
  return { ok: true, lines: [o.json ? JSON.stringify(r) : `rejected #${r.id}`] };
}
