/**
 * The Memory Operations panel's fragment (SPEC §4.3 "SLA clocks, flagged
 * inventory, gate health", §4.8): the age of the oldest pending proposal
 * and quarantined row against the targets of `sla.ts`, the flagged
 * inventory by rule family and domain, gate health (`/health/db` posture,
 * the audit chain verification, capacity gauges for docs, database size
 * and RSS) and the most recent audit rows.
 */
import type { Memory } from "../memory.ts";
import { ageMs, formatAge, num } from "./format.ts";
import { screenOf } from "./quarantine-panel.tsx";
import { PENDING_TARGET_MS, QUARANTINE_TARGET_MS, slaStatus } from "./sla.ts";

type AuditRows = Awaited<ReturnType<Memory["audit"]["list"]>>["rows"];

/** Everything the panel shows, gathered through the composition root. */
export interface OpsData {
  now: Date;
  oldestPending?: string;
  pendingCount: number;
  oldestFlagged?: string;
  flaggedCount: number;
  more: { pending: boolean; flagged: boolean };
  byFamily: [string, number][];
  byDomain: [string, number][];
  healthDb: Record<string, unknown>;
  verify: { ok: boolean; rows: number; head?: string; first_broken?: { id: number; reason: string } };
  recent: AuditRows;
}

const PAGE = 500;
const RECENT = 12;

function tally(values: string[]): [string, number][] {
  const m = new Map<string, number>();
  for (const v of values) m.set(v, (m.get(v) ?? 0) + 1);
  return [...m.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** Reads the panel's data (one page of each list; counts past a page show as "500+"). */
export async function gatherOps(memory: Memory, now: Date): Promise<OpsData> {
  const pending = await memory.review.list({ status: "pending", limit: PAGE, piiRead: false });
  const flagged = await memory.quarantine.list({ limit: PAGE });
  const verify = await memory.audit.verify();
  // Audit ids are dense and the log is append-only, so the last rows start after `rows - RECENT`.
  const recent = (await memory.audit.list({ after: Math.max(0, verify.rows - RECENT), limit: RECENT })).rows.reverse();
  const oldest = (xs: { created_at: string }[]) => xs.reduce<string | undefined>((o, x) => (o === undefined || x.created_at < o ? x.created_at : o), undefined);
  return {
    now, pendingCount: pending.length, flaggedCount: flagged.items.length,
    oldestPending: oldest(pending), oldestFlagged: oldest(flagged.items),
    more: { pending: pending.length === PAGE, flagged: flagged.next_after !== undefined },
    byFamily: tally(flagged.items.flatMap((q) => screenOf(q).reasons.length ? screenOf(q).reasons : ["not recorded"])),
    byDomain: tally(flagged.items.map((q) => q.domain)),
    healthDb: await memory.healthDb(), verify, recent,
  };
}

function Clock(props: { name: string; since?: string; target: number; now: Date; count: number; more: boolean }) {
  const age = props.since === undefined ? undefined : ageMs(props.since, props.now);
  const st = slaStatus(age, props.target);
  const word = { idle: "nothing waiting", ok: "within target", warn: "near target", over: "over target" }[st];
  return (
    <tr>
      <th scope="row">{props.name}</th>
      <td>{age === undefined ? "none" : formatAge(age)}</td>
      <td>{formatAge(props.target)}</td>
      <td>{`${props.count}${props.more ? "+" : ""}`}</td>
      <td><span class={`badge s-${st}`}>{word}</span></td>
    </tr>
  );
}

function Gauge(props: { label: string; value: number; max: number; unit: string }) {
  const id = `g-${props.label.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <div class="gauge">
      <label for={id}>{props.label}</label>
      <meter id={id} min={0} max={props.max} low={0.8 * props.max} high={0.9 * props.max} optimum={0} value={props.value}>
        {`${num(props.value)} of ${num(props.max)}`}
      </meter>
      <span>{`${num(props.value)} / ${num(props.max)} ${props.unit}`}</span>
    </div>
  );
}

function Tally(props: { caption: string; rows: [string, number][]; head: string }) {
  return (
    <table>
      <caption>{props.caption}</caption>
      <thead><tr><th scope="col">{props.head}</th><th scope="col">Rows</th></tr></thead>
      <tbody>
        {props.rows.length === 0 ? <tr><td colspan={2}>none</td></tr> : props.rows.map(([k, n]) => <tr><td>{k}</td><td>{String(n)}</td></tr>)}
      </tbody>
    </table>
  );
}

/** The panel. */
export function OpsPanel(props: { d: OpsData }) {
  const d = props.d;
  const cap = (d.healthDb.capacity ?? {}) as Record<string, number | string>;
  const dur = (d.healthDb.durability ?? {}) as Record<string, unknown>;
  const posture: [string, unknown][] = [
    ["Database status", d.healthDb.status], ["Journal mode", dur.journal_mode], ["Synchronous", dur.synchronous], ["Backend", dur.backend],
    ["Write posture", d.healthDb.write_posture], ["Injection screen", d.healthDb.injection_screen], ["Injection policy", d.healthDb.injection_policy],
    ["Schema stamp", d.healthDb.schema_stamp], ["Capacity", cap.status],
  ];
  return (
    <div class="ops">
      <section aria-labelledby="sla-h">
        <h2 id="sla-h">SLA clocks</h2>
        <table>
          <thead><tr><th scope="col">Clock</th><th scope="col">Oldest</th><th scope="col">Target</th><th scope="col">Waiting</th><th scope="col">Status</th></tr></thead>
          <tbody>
            <Clock name="Pending proposal" since={d.oldestPending} target={PENDING_TARGET_MS} now={d.now} count={d.pendingCount} more={d.more.pending} />
            <Clock name="Quarantined row" since={d.oldestFlagged} target={QUARANTINE_TARGET_MS} now={d.now} count={d.flaggedCount} more={d.more.flagged} />
          </tbody>
        </table>
      </section>
      <section aria-labelledby="inv-h">
        <h2 id="inv-h">Flagged inventory</h2>
        <div class="pair">
          <Tally caption="By rule family" head="Rule family" rows={d.byFamily} />
          <Tally caption="By domain" head="Domain" rows={d.byDomain} />
        </div>
      </section>
      <section aria-labelledby="gate-h">
        <h2 id="gate-h">Gate health</h2>
        <p class={`badge s-${d.verify.ok ? "ok" : "over"}`} id="audit-verify">
          {d.verify.ok ? `Audit chain verified: ${d.verify.rows} rows intact` : `Audit chain BROKEN at row ${d.verify.first_broken?.id} (${d.verify.first_broken?.reason})`}
        </p>
        <div class="gauges">
          <Gauge label="Documents" value={Number(cap.docs ?? 0)} max={Number(cap.max_docs ?? 1)} unit="docs" />
          <Gauge label="Database size" value={Number(cap.db_mib ?? 0)} max={Number(cap.max_db_mib ?? 1)} unit="MiB" />
          <Gauge label="Resident memory" value={Number(cap.rss_mib ?? 0)} max={Number(cap.max_rss_mib ?? 1)} unit="MiB" />
        </div>
        <dl class="kv">
          {posture.filter(([, v]) => v !== undefined).map(([k, v]) => <><dt>{k}</dt><dd>{String(v)}</dd></>)}
        </dl>
        <details>
          <summary>Full /health/db</summary>
          <pre class="content">{JSON.stringify(d.healthDb, null, 2)}</pre>
        </details>
      </section>
      <section aria-labelledby="audit-h">
        <h2 id="audit-h">Recent audit rows</h2>
        <div class="scroll">
          <table>
            <thead><tr><th scope="col">Id</th><th scope="col">Time</th><th scope="col">Action</th><th scope="col">Target</th></tr></thead>
            <tbody>
              {d.recent.map((r) => <tr><td>{String(r.id)}</td><td><time datetime={r.ts}>{r.ts}</time></td><td>{r.action}</td><td>{r.target ?? ""}</td></tr>)}
            </tbody>
          </table>
        </div>
      </section>
    </div>
  );
}
