/**
 * `cairn query` and `cairn explain` (SPEC §4.12): the recall pipeline from
 * the command line, through the same service as `POST /recall`. `query`
 * prints a table (or JSON with `--json`); `explain` prints each hit's legs,
 * ranks, fused and rerank scores, graph hops and the stage telemetry.
 */
import type { Memory } from "../memory.ts";

type Hit = Record<string, unknown> & { id: number; score: number; title?: string; snippet?: string; source?: string; provenance?: Record<string, unknown> };

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s).replace(/\s+/g, " ");

/** Runs a query and returns the printable lines. */
export async function queryLines(memory: Memory, text: string, k: number, json: boolean): Promise<string[]> {
  const r = await memory.recall({ query: text, limit: k, provenance: true });
  if (json) return [JSON.stringify(r, null, 2)];
  const hits = r.hits as Hit[];
  if (r.decision === "low_confidence") return ["no confident answer (decision: low_confidence)"];
  if (!hits.length) return ["no hits"];
  // Issue 22 item 6: each hit shows its title, then its snippet and where it came from (the source path).
  const lines = ["rank  id      score   leg     title", "      snippet / source"];
  hits.forEach((h, i) => {
    lines.push(`${String(i + 1).padEnd(5)} ${String(h.id).padEnd(7)} ${h.score.toFixed(4)}  ${String(h.source ?? "").padEnd(7)} ${clip(String(h.title ?? "(untitled)"), 60)}`);
    if (h.snippet) lines.push(`      ${clip(String(h.snippet), 100)}`);
    const link = (h.evidence as { source_link?: string } | undefined)?.source_link;
    if (link) lines.push(`      source: ${link}`);
  });
  return lines;
}

/** Explains a query: per-hit legs and ranks, then the telemetry. */
export async function explainLines(memory: Memory, text: string, k: number): Promise<string[]> {
  const r = await memory.recall({ query: text, limit: k, provenance: true });
  const lines: string[] = [`domain ${r.domain}  searched [${(r.domainsSearched as string[]).join(", ")}]  included_global ${r.included_global}`];
  if (r.decision) lines.push(`decision ${r.decision}`);
  for (const [i, h] of (r.hits as Hit[]).entries()) {
    const p = h.provenance ?? {};
    lines.push(`#${i + 1} id ${h.id} score ${h.score} leg ${h.source} — ${clip(String(h.title ?? ""), 60)}`);
    const ranks = ["vector_rank", "fts_rank", "graph_rank"].filter((k) => p[k] !== undefined).map((k) => `${k}=${p[k]}`).join(" ");
    lines.push(`   ranks: ${ranks || "(graph only)"}  fused ${p.fused_score}${p.rerank_score !== undefined ? `  rerank ${p.rerank_score}` : ""}${p.prf_expanded ? "  prf" : ""}`);
    for (const hop of (p.graph_hops as { from: { name: string }; relation: string; to: { name: string } }[] | undefined) ?? []) {
      lines.push(`   hop: ${hop.from.name} -[${hop.relation}]-> ${hop.to.name}`);
    }
    lines.push(`   snippet: ${clip(String(h.snippet ?? ""), 100)}`);
  }
  const tel = r.telemetry as Record<string, unknown> | undefined;
  if (tel) lines.push(`telemetry: ${Object.entries(tel).map(([k, v]) => `${k}=${v}`).join(" ")}`);
  const first = (r.hits as Hit[])[0]?.provenance;
  if (first?.prf_decision) lines.push(`prf: ${JSON.stringify(first.prf_decision)}`);
  return lines;
}
