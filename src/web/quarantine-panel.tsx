/**
 * The Quarantine panel's fragment (SPEC §1 Trust rules, §4.4): flagged
 * rows, read through the seam, with the screen verdict and the rule
 * families that fired; release puts a row back into retrieval, delete
 * removes it (both audited by `memory.quarantine`). The two-key rule of
 * docs/governance.md: a flagged proposal approved in review (key one) is
 * stored flagged, and the release here is the second key; the panel says
 * which rows came that way.
 */
import type { QuarantineItem } from "../quarantine/quarantine-service.ts";
import { ageMs, formatAge, num } from "./format.ts";

/** The screen result stored with a quarantined row, when present. */
export function screenOf(item: QuarantineItem): { verdict: string; reasons: string[]; score?: number } {
  const s = (item.screen ?? {}) as { verdict?: unknown; reasons?: unknown; score?: unknown };
  const out: { verdict: string; reasons: string[]; score?: number } = {
    verdict: typeof s.verdict === "string" ? s.verdict : "flagged",
    reasons: Array.isArray(s.reasons) ? s.reasons.map(String) : [],
  };
  if (typeof s.score === "number") out.score = s.score;
  return out;
}

/** The quarantined rows. */
export function QuarantineList(props: { items: QuarantineItem[]; more: boolean; now: Date; approvedFrom: ReadonlyMap<number, number> }) {
  const n = props.items.length;
  return (
    <section aria-label="Quarantined rows">
      <p class="count">{n === 0 ? "No quarantined rows." : `${n}${props.more ? "+" : ""} quarantined, oldest first. Quarantined rows are excluded from recall until released.`}</p>
      {props.items.map((q) => {
        const s = screenOf(q);
        const h = `q-${q.id}-h`;
        return (
          <article class="card quarantined" id={`q-${q.id}`} data-id={String(q.id)} tabindex={-1} aria-labelledby={h}>
            <header>
              <h2 id={h}>{`#${q.id} `}{q.title ?? "Untitled entry"}</h2>
              <ul class="meta">
                <li>verdict <strong class={`verdict v-${s.verdict}`}>{s.verdict}</strong></li>
                <li>rule family <strong>{s.reasons.length ? s.reasons.join(", ") : "not recorded"}</strong></li>
                {s.score !== undefined ? <li>score <strong>{num(s.score)}</strong></li> : null}
                <li>source <strong>{q.source}</strong></li>
                <li>domain <strong>{q.domain}</strong></li>
                <li>stored <time datetime={q.created_at}>{formatAge(ageMs(q.created_at, props.now))} ago</time></li>
              </ul>
            </header>
            <pre class="content">{q.content}</pre>
            <p class="muted">
              {props.approvedFrom.has(q.id)
                ? `Key one: approved in review (proposal #${props.approvedFrom.get(q.id)}). Releasing is the second key.`
                : "Flagged by the screen at ingest. Releasing lets it into recall."}
            </p>
            <div class="actions">
              <button type="button" class="primary" data-act="release">Release into recall</button>
              <button type="button" class="danger" data-act="delete">Delete</button>
            </div>
          </article>
        );
      })}
    </section>
  );
}
