/**
 * The Agent Memory Register's fragment (SPEC §2.8, §4.3 "read-only Agent
 * Memory Register", §4.9): UMP records by owner and kind, each lineage's
 * current version with its provenance, integrity and signature status, and
 * its version history. Read-only: no control here changes a record.
 */
import type { Register, RegisterVersion } from "../ump/register.ts";
import { clip } from "./format.ts";

function Integrity(props: { v: RegisterVersion }) {
  const v = props.v;
  const ok = v.integrity === "verified";
  const sig = v.signed ? `signed by ${clip(v.signer ?? "", 32)}` : "unsigned (no operator key when written)";
  return <span class={`badge s-${ok ? "ok" : "over"}`}>{ok ? `hash verified, ${sig}` : `integrity ${v.integrity}`}</span>;
}

function Provenance(props: { v: RegisterVersion }) {
  const p = props.v.provenance;
  if (!p) return <span>not recorded</span>;
  return <span>{`${p.actor_kind} ${clip(p.actor, 40)} via ${p.method}${p.source ? ` from ${p.source.ref}` : ""}`}</span>;
}

function Lineage(props: { versions: RegisterVersion[] }) {
  const head = props.versions[0]!;
  const h = `r-${head.id.slice(8, 24)}`;
  return (
    <article class="card record" aria-labelledby={h}>
      <h4 id={h}>{head.title ?? clip(head.text, 60)}</h4>
      <p class="content">{clip(head.text, 400)}</p>
      <dl class="kv">
        <dt>Id</dt><dd><code>{head.id}</code></dd>
        <dt>Status</dt><dd>{head.status}</dd>
        <dt>Integrity</dt><dd><Integrity v={head} /></dd>
        <dt>Content hash</dt><dd><code>{head.content_hash ?? "none"}</code></dd>
        <dt>Provenance</dt><dd><Provenance v={head} /></dd>
        <dt>Written</dt><dd><time datetime={head.created_at}>{head.created_at}</time></dd>
      </dl>
      <details>
        <summary>{`Version history (${props.versions.length} ${props.versions.length === 1 ? "version" : "versions"})`}</summary>
        <ol class="history">
          {props.versions.map((v) => (
            <li>
              <code>{v.id}</code> · {v.status} · <time datetime={v.created_at}>{v.created_at}</time> · <Integrity v={v} />
              <p class="muted">{clip(v.text, 160)}</p>
            </li>
          ))}
        </ol>
      </details>
    </article>
  );
}

/** The register. */
export function RegisterPanel(props: { r: Register }) {
  const r = props.r;
  if (r.records === 0) return <p class="count">No UMP records yet. Agents write them with <code>POST /ump/remember</code> or the <code>ump.remember</code> tool.</p>;
  return (
    <div>
      <p class="count">{`${r.records} record versions${r.truncated ? " (first page)" : ""}, by owner and kind.`}</p>
      {r.owners.map((o, i) => (
        <section class="owner" aria-labelledby={`o-${i}`}>
          <h2 id={`o-${i}`}>Owner <code>{o.owner}</code></h2>
          {o.kinds.map((k) => (
            <section aria-label={`${k.kind} records of this owner`}>
              <h3>{`${k.kind} (${k.lineages.length})`}</h3>
              {k.lineages.map((l) => <Lineage versions={l} />)}
            </section>
          ))}
        </section>
      ))}
    </div>
  );
}
