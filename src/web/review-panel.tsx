/**
 * The Review panel's fragments (SPEC §2.7, §3, §4.3): pending proposals,
 * each with its read-canonical content (the bytes `content_digest` binds,
 * i.e. what will be remembered), the score breakdown, the screen verdict,
 * the raw evidence, origin and door; approve carries the digest (the
 * client script reads `data-digest`), reject takes an optional reason, and
 * the supersedes choice comes from recall suggestions loaded on demand.
 */
import type { ProposalView } from "../review/review-view.ts";
import { ageMs, clip, formatAge, num } from "./format.ts";

/** Orders offered by the panel. */
export type ReviewSort = "newest" | "score";

/** Sorts views: newest first, or highest score first (newest breaks ties). */
export function sortProposals(list: ProposalView[], sort: ReviewSort): ProposalView[] {
  const byNew = (a: ProposalView, b: ProposalView) => b.id - a.id;
  return [...list].sort(sort === "score" ? (a, b) => b.score - a.score || byNew(a, b) : byNew);
}

type Component = { name?: unknown; weight?: unknown; value?: unknown; why?: unknown; contribution?: unknown };

function Breakdown(props: { data: Record<string, unknown> }) {
  const comps = Array.isArray(props.data.components) ? (props.data.components as Component[]) : [];
  const rest = Object.entries(props.data).filter(([k]) => k !== "components");
  if (comps.length === 0 && rest.length === 0) return <p class="muted">No breakdown recorded.</p>;
  return (
    <>
      {comps.length ? (
        <table>
          <thead><tr><th scope="col">Component</th><th scope="col">Weight</th><th scope="col">Value</th><th scope="col">Adds</th><th scope="col">Why</th></tr></thead>
          <tbody>
            {comps.map((x) => <tr><td>{String(x.name ?? "")}</td><td>{num(x.weight)}</td><td>{num(x.value)}</td><td>{num(x.contribution)}</td><td>{String(x.why ?? "")}</td></tr>)}
          </tbody>
        </table>
      ) : null}
      {rest.length ? (
        <table class="kv">
          <tbody>
            {rest.map(([k, v]) => <tr><th scope="row">{k}</th><td>{typeof v === "object" ? JSON.stringify(v) : num(v)}</td></tr>)}
          </tbody>
        </table>
      ) : null}
    </>
  );
}

function verdictOf(screen: Record<string, unknown>): string {
  return typeof screen.verdict === "string" ? screen.verdict : "unknown";
}

/** One proposal card. */
export function ProposalCard(props: { p: ProposalView; now: Date }) {
  const p = props.p;
  const h = `p-${p.id}-h`;
  const reasons = Array.isArray(p.screen.reasons) ? (p.screen.reasons as unknown[]).map(String) : [];
  return (
    <article class="card proposal" id={`p-${p.id}`} data-id={String(p.id)} data-digest={p.content_digest} tabindex={-1} aria-labelledby={h}>
      <header>
        <h2 id={h}>{`#${p.id} `}{p.title ?? "Untitled proposal"}</h2>
        <ul class="meta">
          <li>score <strong>{num(p.score)}</strong></li>
          <li>screen <strong class={`verdict v-${verdictOf(p.screen)}`}>{verdictOf(p.screen)}</strong></li>
          <li>origin <strong>{p.origin ?? "unknown"}</strong></li>
          <li>door <strong>{p.door}</strong></li>
          <li>domain <strong>{p.domain}</strong></li>
          <li>kind <strong>{p.kind}</strong></li>
          <li>filed <time datetime={p.created_at}>{formatAge(ageMs(p.created_at, props.now))} ago</time></li>
        </ul>
      </header>
      {verdictOf(p.screen) === "quarantine"
        ? <p class="warn">The screen flags this text: approving stores it quarantined, and it enters recall only after a release in Quarantine (two keys).</p>
        : null}
      <h3 class="label">What will be remembered</h3>
      <pre class="content">{p.content}</pre>
      <details>
        <summary>Score breakdown</summary>
        <Breakdown data={p.score_breakdown} />
      </details>
      <details>
        <summary>Screen verdict and raw evidence</summary>
        <dl class="kv">
          <dt>Verdict</dt><dd>{verdictOf(p.screen)}{reasons.length ? ` (${reasons.join(", ")})` : ""}</dd>
          <dt>Stored bytes</dt><dd>{String(p.raw_evidence.bytes)}</dd>
          <dt>SHA-256</dt><dd><code>{p.raw_evidence.sha256}</code></dd>
          <dt>Removed by the read seam</dt><dd>{`${p.raw_evidence.removed_by_read_seam} characters`}</dd>
          {p.source ? <><dt>Source</dt><dd>{p.source}</dd></> : null}
          {p.source_prompt ? <><dt>Sourcing prompt</dt><dd>{p.source_prompt}</dd></> : null}
          <dt>Content digest</dt><dd><code>{p.content_digest}</code></dd>
        </dl>
        <h4 class="label">Stored text, hidden characters escaped</h4>
        <pre class="content raw">{p.raw_evidence.escaped}</pre>
      </details>
      <details class="suggest" data-src={`/app/fragments/suggest/${p.id}`}>
        <summary>Supersedes an older memory? (optional)</summary>
        <div class="suggest-body"><p class="muted">Opening this loads recall suggestions.</p></div>
      </details>
      <div class="actions">
        <label for={`reason-${p.id}`}>Reason for a rejection (optional, not stored)</label>
        <input id={`reason-${p.id}`} name="reason" type="text" maxlength={500} />
        <button type="button" class="primary" data-act="approve">Approve</button>
        <button type="button" data-act="reject">Reject</button>
      </div>
    </article>
  );
}

/** The list of pending proposals. */
export function ReviewList(props: { list: ProposalView[]; sort: ReviewSort; now: Date; more: boolean }) {
  const n = props.list.length;
  return (
    <section aria-label="Pending proposals">
      <p class="count">{n === 0 ? "Nothing waits for review." : `${n}${props.more ? "+" : ""} pending, ${props.sort === "score" ? "highest score" : "newest"} first.`}</p>
      {props.list.some((p) => p.pii_redacted)
        ? <p class="muted">Texts are shown with personal data redacted (this reader lacks pii:read); each digest binds the original text.</p>
        : null}
      {sortProposals(props.list, props.sort).map((p) => <ProposalCard p={p} now={props.now} />)}
    </section>
  );
}

/** A supersedes choice from recall hits (id, title, snippet). */
export function SuggestChoice(props: { id: number; hits: { id: number; title?: string; content: string }[] }) {
  const sel = `sup-${props.id}`;
  return (
    <div>
      <label for={sel}>Supersedes</label>
      <select id={sel} name="supersedes">
        <option value="">Nothing: a new memory</option>
        {props.hits.map((h) => <option value={String(h.id)}>{`#${h.id} ${clip(h.title ?? h.content, 80)}`}</option>)}
      </select>
      {props.hits.length === 0 ? <p class="muted">Recall found no similar memory.</p> : null}
    </div>
  );
}
