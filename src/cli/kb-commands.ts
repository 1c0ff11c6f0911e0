/**
 * `cairn kb build --domain d --out dir --base-url url [--with-case-status]
 * [--locales list]` (SPEC §4.12): the static knowledge-base site
 * (src/kb/README.md). Prints a one-line summary, or the report as JSON.
 */
import { buildSite, parseLocaleList } from "../kb/build-site.ts";
import { normalizeBaseUrl } from "../kb/plan-site.ts";
import { normalizeDomainName } from "../domains/domain-name.ts";
import type { Memory } from "../memory.ts";
import { readOramaBrowserBuild, writeSiteFiles } from "../runtime/site-files.ts";
import { isMemoryError, MemoryError } from "../core/errors.ts";
import type { CommandOutcome } from "./governance-commands.ts";

/** `cairn kb build`. */
export async function kbBuildCommand(
  memory: Memory,
  o: { domain?: string; out?: string; baseUrl?: string; withCaseStatus?: boolean; locales?: string; json?: boolean },
): Promise<CommandOutcome> {
  for (const [k, v] of [["--domain", o.domain], ["--out", o.out], ["--base-url", o.baseUrl]] as const) {
    if (typeof v !== "string" || v === "") throw new MemoryError("invalid_request", `kb build needs ${k}`);
  }
  const out = o.out as string;
  // A bad option value is a usage error (exit 2, docs/cli.md "Exit codes"): the domain's and locales' own codes become invalid_request here.
  try {
    normalizeDomainName(o.domain);
    if (o.locales !== undefined) parseLocaleList(String(o.locales));
    normalizeBaseUrl(o.baseUrl as string);
  } catch (e) {
    throw isMemoryError(e) ? new MemoryError("invalid_request", e.message, e.details) : e;
  }
  const report = await buildSite({
    kb: memory.kb,
    domainExists: (n) => memory.domains.exists(n),
    statusDocuments: (at) => memory.workflow.statusDocuments(at),
    oramaFiles: readOramaBrowserBuild,
    write: (files) => writeSiteFiles(out, files),
  }, { domain: o.domain as string, baseUrl: o.baseUrl as string, withCaseStatus: o.withCaseStatus === true, locales: o.locales === undefined ? undefined : String(o.locales) });
  if (o.json) return { ok: true, lines: [JSON.stringify(report)] };
  const lines = [`kb build: ${report.articles} articles, ${report.pages} pages in ${report.locales.join(", ") || "no locale"}, ${report.files} files` +
    `${report.status_pages ? `, ${report.status_pages} case status pages` : ""} → ${out}`];
  for (const d of report.duplicates) lines.push(`duplicate: article ${d.article_id} has the same content as article ${d.duplicate_of} (skipped)`);
  for (const l of report.missing_locales) lines.push(`locale ${l}: no article in this locale (skipped)`);
  for (const s of report.stale_translations) lines.push(`stale translation: article ${s.article_id} (${s.locale}) is based on an older revision`);
  return { ok: true, lines };
}
