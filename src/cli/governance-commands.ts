/**
 * The governance commands of the operator CLI (SPEC §4.12 `resolve`,
 * `undo-resolve`, `check-consistency`; this project's definitions), plus
 * `verify-certificate` for deletion certificates. Each returns the lines to
 * print and whether the command succeeded; `cli.ts` does the I/O.
 *
 * - `resolve` runs the deterministic consolidation proposer and lists every
 *   proposed link; `resolve <link-id>` approves one (= `POST /consolidate`).
 * - `undo-resolve <link-id>` reverses an approval or dismisses a proposal
 *   (= `POST /consolidate/undo`).
 * - `check-consistency` runs the store and audit-chain checks; fails on any.
 * - `verify-certificate <file>` checks a certificate against the local
 *   store's audit chain, or a running server's `GET /audit` with `--url`.
 */
import { verifyCertificate, type AuditRowLike, type ErasureSubject } from "../erasure/certificate.ts";
import type { Memory } from "../memory.ts";
import type { LinkView } from "../review/consolidate-service.ts";

/** A command's printable outcome. */
export interface CommandOutcome {
  ok: boolean;
  lines: string[];
}

const linkLine = (l: LinkView) =>
  `link ${l.id}  ${l.kind}  ${l.from} -> ${l.to}  ${l.status}  ${String(l.basis.rule ?? "")}${l.basis.similarity !== undefined ? ` ${l.basis.similarity}` : ""}`;

/** `cairn resolve [id]`. */
export async function resolveCommand(memory: Memory, id: number | undefined, o: { domain?: string; threshold?: number; json?: boolean }): Promise<CommandOutcome> {
  if (id !== undefined) {
    const l = await memory.consolidate.approve({ id });
    return { ok: true, lines: o.json ? [JSON.stringify(l)] : [`approved ${linkLine(l)}`] };
  }
  const { proposed } = await memory.consolidate.propose({ domain: o.domain, threshold: o.threshold });
  const pending: LinkView[] = [];
  for (let after = 0; ;) {
    const page = await memory.consolidate.list({ status: "proposed", after, limit: 500 });
    pending.push(...page);
    if (page.length < 500) break;
    after = page[page.length - 1].id;
  }
  if (o.json) return { ok: true, lines: [JSON.stringify({ new: proposed.map((l) => l.id), proposed: pending })] };
  return { ok: true, lines: [`resolve: ${proposed.length} new, ${pending.length} awaiting approval (cairn resolve <link-id>)`, ...pending.map(linkLine)] };
}

/** `cairn undo-resolve <id>`. */
export async function undoResolveCommand(memory: Memory, id: number, json?: boolean): Promise<CommandOutcome> {
  const l = await memory.consolidate.undo(id);
  return { ok: true, lines: json ? [JSON.stringify(l)] : [`${l.status} ${linkLine(l)}`] };
}

/** `cairn check-consistency`. */
export async function checkConsistencyCommand(memory: Memory, json?: boolean): Promise<CommandOutcome> {
  const r = await memory.checkConsistency();
  if (json) return { ok: r.ok, lines: [JSON.stringify(r)] };
  const lines = r.checks.map((c) => `${c.ok ? "ok  " : "FAIL"} ${c.name}${c.count ? ` (${c.count}${c.sample ? `: ${c.sample.join(", ")}` : ""})` : ""}${c.detail ? `  ${c.detail}` : ""}`);
  return { ok: r.ok, lines: [...lines, r.ok ? "consistent" : "INCONSISTENT"] };
}

async function fetchAuditRows(url: string, upTo: number, token?: string): Promise<AuditRowLike[]> {
  const rows: AuditRowLike[] = [];
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  for (let after = 0; after < upTo;) {
    const res = await fetch(`${url.replace(/\/$/, "")}/audit?after=${after}&limit=${Math.min(1000, upTo - after)}`, { headers, redirect: "error" });
    if (!res.ok) throw new Error(`GET /audit answered ${res.status}`);
    const page = (await res.json()) as { rows: AuditRowLike[] };
    if (!page.rows.length) break;
    rows.push(...page.rows);
    after = page.rows[page.rows.length - 1].id;
  }
  return rows;
}

/** `cairn verify-certificate <file>`: `memory` is the local store unless `url` is given. */
export async function verifyCertificateCommand(
  certText: string,
  o: { memory?: Memory; url?: string; token?: string; subject?: ErasureSubject; json?: boolean },
): Promise<CommandOutcome> {
  let cert: unknown;
  try {
    cert = JSON.parse(certText);
  } catch {
    return { ok: false, lines: ["verify-certificate: the file is not JSON"] };
  }
  const upTo = Number((cert as { audit?: { row_id?: unknown } })?.audit?.row_id);
  const r = o.url !== undefined
    ? verifyCertificate(cert, Number.isSafeInteger(upTo) ? await fetchAuditRows(o.url, upTo, o.token) : [], o.subject)
    : await o.memory!.erasure.verify(cert, o.subject);
  if (o.json) return { ok: r.valid, lines: [JSON.stringify(r)] };
  return { ok: r.valid, lines: [...r.checks.map((c) => `${c.ok ? "ok  " : "FAIL"} ${c.name}${c.detail ? `  ${c.detail}` : ""}`), r.valid ? "certificate valid" : "certificate INVALID"] };
}
