/**
 * `cairn kb build` (SPEC §4.12): reads what the site is made of through the
 * services, plans it (src/kb/plan-site.ts) and hands the files to a writer
 * port. The case status pages are built at the newest stored time rather
 * than the wall clock (x-cairn-choice), so the same store gives the same
 * bytes (issue 17) and the build stamp still orders builds: any change to
 * the store moves it.
 */
import { MemoryError } from "../core/errors.ts";
import { normalizeDomainName } from "../domains/domain-name.ts";
import type { StatusDocument } from "../workflow/status-document.ts";
import type { KbService } from "./kb-service.ts";
import { parseLocale } from "./locale.ts";
import { planSite, type SiteReport } from "./plan-site.ts";

/** Options of `kb build`. */
export interface BuildOptions {
  domain: string;
  baseUrl: string;
  withCaseStatus?: boolean;
  /** Comma-separated locales (`--locales de,en`). */
  locales?: string;
}

/** What a build needs. */
export interface BuildDeps {
  kb: KbService;
  domainExists(name: string): Promise<boolean>;
  statusDocuments(at?: Date): Promise<{ ref: string; document: StatusDocument }[]>;
  /** Orama's browser build (path → text). */
  oramaFiles(): Promise<Map<string, string>>;
  /** Writes the planned files (the runtime's executor). */
  write(files: Map<string, string>): Promise<void>;
}

/** Parses `--locales`. */
export function parseLocaleList(raw: string): string[] {
  const parts = raw.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (parts.length === 0) throw new MemoryError("locale_invalid", "--locales must list at least one locale", { field: "locales" });
  return parts.map((p) => parseLocale(p, "locales"));
}

/** Builds the site; returns the report. */
export async function buildSite(d: BuildDeps, o: BuildOptions): Promise<SiteReport> {
  const domain = normalizeDomainName(o.domain);
  if (!(await d.domainExists(domain))) throw new MemoryError("domain_invalid", `domain "${domain}" does not exist`, { field: "domain" });
  const locales = o.locales === undefined ? undefined : parseLocaleList(o.locales);
  const stamp = await d.kb.latestStoredTime();
  const statusPages = o.withCaseStatus ? await d.statusDocuments(new Date(stamp ?? 0)) : undefined;
  const { files, report } = await planSite({
    domain, baseUrl: o.baseUrl, articles: await d.kb.siteArticles(domain), locales, statusPages, oramaFiles: await d.oramaFiles(),
  });
  await d.write(files);
  return report;
}
