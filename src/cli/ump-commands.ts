/**
 * `cairn ump <action>` (SPEC §4.12, §5 items 5–7): `keygen`, `token`,
 * `revoke`, `export` and `import`, thin over the runtime keyring and
 * `memory.ump`. The CLI acts as the local operator. Output is plain lines;
 * `token` prints the token as its last line so scripts can take `tail -1`.
 */
import type { Config } from "../config/config.ts";
import { isMemoryError, MemoryError } from "../core/errors.ts";
import type { Memory } from "../memory.ts";
import { readTextFile, writeFileAtomic } from "../runtime/platform.ts";
import { dirKeyring } from "../runtime/ump-keyring.ts";
import { operatorActor } from "../ump/actor.ts";
import { mintToken, parseScopeArgs, VERBS } from "../ump/capability-token.ts";
import { didFromSeed } from "../ump/did-key.ts";
import { parseUmpJson, parseUmpMarkdown, serialiseUmpMarkdown } from "../ump/file-projection.ts";
import type { Verb } from "../ump/types.ts";

/** Options cac parses for `cairn ump`. */
export interface UmpCliOptions {
  verbs?: string;
  scope?: string | string[];
  ttl?: string;
  aud?: string;
  format?: string;
  out?: string;
  /** export: skip the read seam (the operator's raw backup, audited). */
  raw?: boolean;
}

/** `ump keygen`: creates the operator seed (0600 in a 0700 directory) and prints the did:key. */
export async function umpKeygen(config: Config): Promise<string[]> {
  const keyring = dirKeyring(config.umpKeyDir);
  const existing = await keyring.current();
  if (existing) {
    return [
      `An operator key already exists in ${keyring.dir}; it was kept.`,
      "To rotate: delete it and run cairn ump keygen again (every token signed by the old key stops verifying at once).",
      didFromSeed(existing),
    ];
  }
  const { path, seed } = await keyring.generate();
  return [`Created ${path} (mode 0600)`, didFromSeed(seed)];
}

/** `ump token`: mints a capability token signed by the operator key; the token is the last line. */
export async function umpToken(config: Config, memory: Memory, o: UmpCliOptions): Promise<string[]> {
  const seed = await dirKeyring(config.umpKeyDir).current();
  if (!seed) throw new MemoryError("operator_key_missing", "No operator key is configured; run cairn ump keygen first");
  const verbs = (o.verbs ?? "read").split(",").map((v) => v.trim()).filter(Boolean);
  if (!verbs.every((v) => VERBS.includes(v as Verb))) throw new MemoryError("invalid_request", `--verbs must be a comma list of ${VERBS.join(", ")}`);
  const scopeArgs = o.scope === undefined ? [] : Array.isArray(o.scope) ? o.scope : [o.scope];
  const scope = parseScopeArgs(scopeArgs.flatMap((s) => String(s).split(",")).filter(Boolean));
  const now = new Date();
  const token = mintToken(seed, { verbs: verbs as Verb[], scope, ttl: o.ttl ?? "24h", aud: o.aud, now });
  const claims = JSON.parse(new TextDecoder().decode(base64UrlBytes(token.split(".")[1]))) as { jti: string; exp: string };
  // The mint is audited with its id (never the token itself), so the operator can find what to revoke.
  await memory.audit.record({ action: "ump_token_mint", target: `jti:${claims.jti}`, detail: { verbs, scope, exp: claims.exp, ...(o.aud ? { aud: o.aud } : {}) } });
  return [
    `jti: ${claims.jti}`,
    `verbs: ${verbs.join(",")}`,
    `scope: ${Object.entries(scope).map(([k, v]) => `${k}=${v}`).join(",") || "(any)"}`,
    `audience: ${o.aud ?? "(operator)"}`,
    `expires: ${claims.exp}`,
    token,
  ];
}

/** `ump revoke <jti>`. */
export async function umpRevoke(memory: Memory, arg: string | undefined): Promise<string[]> {
  if (!arg) throw new MemoryError("invalid_request", "Give the token id to revoke: cairn ump revoke <jti>");
  const r = await memory.ump.revoke(arg);
  return [r.revoked ? `Revoked ${r.jti}` : `${r.jti} was already revoked`];
}

/**
 * `ump export --format md|ump --out <file>`. Records that no longer verify are left out and named on stderr
 * (`failed` then makes the exit code 1), the rest is still written.
 */
export async function umpExport(memory: Memory, o: UmpCliOptions): Promise<{ lines: string[]; warnings: string[]; failed: boolean }> {
  const format = o.format ?? "ump";
  if (format !== "md" && format !== "ump") throw new MemoryError("invalid_request", "--format must be md or ump");
  // SPEC §1: the read seam by default; `--raw` is the operator's explicit, audited backup.
  const env = await memory.ump.exportRecords(operatorActor(await memory.ump.operatorDid()), { raw: o.raw === true, format: format === "md" ? "ump-md" : "ump" });
  const warnings = (env.skipped ?? []).map((s) => `skipped ${s.id}: ${s.reason} (the record no longer verifies; see cairn check-consistency)\n`);
  const failed = warnings.length > 0;
  const text = format === "md" ? serialiseUmpMarkdown(env.records) : JSON.stringify(env, null, 2) + "\n";
  if (!o.out) return { lines: [text.replace(/\n$/, "")], warnings, failed };
  await writeFileAtomic(o.out, text);
  return { lines: [`Exported ${env.records.length} records to ${o.out}${failed ? ` (${warnings.length} skipped)` : ""}`], warnings, failed };
}

/** `ump import <file>`: `*.md` is the markdown projection, anything else `*.ump.json` (array, envelope or NDJSON). */
export async function umpImport(memory: Memory, file: string | undefined): Promise<{ lines: string[]; rejected: number }> {
  if (!file) throw new MemoryError("invalid_request", "Give the file to import: cairn ump import <file>");
  const text = await readTextFile(file);
  let records: Record<string, unknown>[];
  try {
    records = (/\.(md|markdown)$/i.test(file) ? parseUmpMarkdown(text) : parseUmpJson(text)) as Record<string, unknown>[];
  } catch (e) {
    // A budget refusal keeps its own code (the HTTP door answers the same); anything else is "not an export".
    if (isMemoryError(e) && e.code === "frontmatter_too_large") throw e;
    throw notAnExport((e as Error).message);
  }
  // Issue 22 item 6: a file of something else is named as such, not reported record by record.
  if (records.length === 0 || !records.every(looksLikeRecord)) throw notAnExport("expected records with `ump` and `body` members, as `cairn ump export` writes them");
  const out = await memory.ump.importRecords(operatorActor(await memory.ump.operatorDid()), records);
  const lines = out.results.filter((r) => r.result === "rejected").map((r) =>
    `record ${r.index + 1}: rejected: ${"error" in r && r.error ? `${r.error.code}: ${r.error.message}` : "rejected"}`
  );
  lines.push(`Imported ${records.length} records: ${out.created} created, ${out.merged} merged, ${out.rejected} rejected`);
  return { lines, rejected: out.rejected };
}

const looksLikeRecord = (r: Record<string, unknown>) =>
  typeof r === "object" && r !== null && (typeof r.ump === "string" || (typeof r.body === "object" && r.body !== null));
const notAnExport = (why: string) => new MemoryError("not_ump_export", `The file is not a UMP export: ${why}`);

function base64UrlBytes(s: string): Uint8Array {
  const b64 = s.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((s.length + 3) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}
