/**
 * The Recall explorer (SPEC §2.2–§2.4, §4.1): what an agent would be told
 * for a query, with each hit's provenance (which leg found it, its ranks,
 * fused and rerank scores, why it ranked) and the request's telemetry.
 */
import type { Child } from "hono/jsx";
import { clip, num } from "./format.ts";

type Hit = Record<string, unknown> & { id: number; content: string; score: number; title?: string };

const LEG_WORDS: Record<string, string> = {
  fts: "lexical (BM25)", vector: "vector similarity", both: "lexical and vector", graph: "knowledge graph",
};

/** The query form shown above the results. */
export function RecallForm(): Child {
  return (
    <form id="recall-form" class="query" role="search" action="/app/recall">
      <label for="recall-q">Query</label>
      <input id="recall-q" name="q" type="search" maxlength={2000} required />
      <button type="submit" class="primary">Recall</button>
    </form>
  );
}

function why(p: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof p.fts_rank === "number") parts.push(`lexical rank ${p.fts_rank + 1}`);
  if (typeof p.vector_rank === "number") parts.push(`vector rank ${p.vector_rank + 1}`);
  if (typeof p.fused_score === "number") parts.push(`fused ${num(p.fused_score)}`);
  if (typeof p.rerank_score === "number") parts.push(`reranked to ${num(p.rerank_score)}`);
  if (p.prf_expanded === true) parts.push("found by the expanded (PRF) pass");
  return parts.join(", ") || "no ranking detail";
}

/** The hits and telemetry of one recall. */
export function RecallResult(props: { query: string; body: Record<string, unknown> }) {
  const hits = (Array.isArray(props.body.hits) ? props.body.hits : []) as Hit[];
  const tel = (props.body.telemetry ?? {}) as Record<string, unknown>;
  return (
    <div>
      <p class="count">{hits.length === 0 ? `No memory matches “${clip(props.query, 80)}”.` : `${hits.length} hits for “${clip(props.query, 80)}”.`}</p>
      <ol class="hits">
        {hits.map((h) => {
          const p = (h.provenance ?? {}) as Record<string, unknown>;
          const leg = String(h.source ?? p.top_retrieval_mode ?? "");
          return (
            <li class="card hit">
              <h2>{`#${h.id} `}{h.title ?? "Untitled"}</h2>
              <ul class="meta">
                <li>score <strong>{num(h.score)}</strong></li>
                {h.relevance ? <li>relevance <strong>{String(h.relevance)}</strong></li> : null}
                <li>found by <strong>{LEG_WORDS[leg] ?? leg}</strong></li>
                <li>domain <strong>{String(h.domain ?? "")}</strong></li>
                {h.origin ? <li>origin <strong>{String(h.origin)}</strong></li> : null}
                {h.conflict ? <li><strong>in conflict</strong></li> : null}
              </ul>
              <p class="content">{clip(String(h.snippet ?? h.content), 600)}</p>
              <p class="why">Why it ranked: {why(p)}. Strategy {String(p.retrieval_strategy ?? "n/a")}.</p>
            </li>
          );
        })}
      </ol>
      <details open={hits.length === 0}>
        <summary>Telemetry</summary>
        <table class="kv">
          <tbody>
            {Object.entries(tel).map(([k, v]) => <tr><th scope="row">{k}</th><td>{typeof v === "object" ? JSON.stringify(v) : num(v)}</td></tr>)}
          </tbody>
        </table>
      </details>
    </div>
  );
}
