/**
 * The GitHub issues connector (issue 15), app-scoped: each sync mints an RS256 App JWT (github-app-jwt.ts) and
 * exchanges it at `POST /app/installations/{id}/access_tokens` for a short-lived installation token; never a personal
 * token. Issues (pull requests skipped: items carrying `pull_request`) and their comments become one markdown
 * record per issue: frontmatter `title`, `tags` (labels), `state`, `source_url` (`html_url`); `rev` = `updated_at`
 * (a new comment bumps it). Listing: `GET /repos/{o}/{r}/issues?state=all&sort=updated&direction=asc&per_page=100`
 * with `since` as the incremental cursor, pages followed by the `Link: <…>; rel="next"` header. Headers per GitHub's
 * REST docs: `Authorization: Bearer`, `Accept: application/vnd.github+json`, `X-GitHub-Api-Version: 2022-11-28`.
 */
import { importAppKey, signAppJwt } from "./github-app-jwt.ts";
import type { ResumableSource } from "./resumable.ts";
import { type ConnectorRecord, type VendorDeps, VendorError, type VendorFactory } from "./vendor.ts";

/** The parsed `github-{instance}.json`. */
export interface GithubConfig {
  api_base_url: string;
  app_id: string;
  installation_id: string;
  /** Path of the App's PEM key (0600). */
  key_file: string;
  /** `owner/name` entries. */
  repos: string[];
}

const API_VERSION = "2022-11-28";
const REPO = /^[A-Za-z0-9_.-]{1,100}\/[A-Za-z0-9_.-]{1,100}$/;

/** Validates a GitHub connector config (throws with a one-line message naming the field). */
export function parseGithubConfig(c: Record<string, unknown>): GithubConfig {
  const str = (k: string) => {
    const v = c[k];
    if (typeof v === "number" && Number.isInteger(v)) return String(v);
    if (typeof v !== "string" || !v.trim()) throw new Error(`GitHub config: "${k}" is required`);
    return v.trim();
  };
  const base = typeof c.api_base_url === "string" && c.api_base_url ? c.api_base_url : "https://api.github.com";
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new Error(`GitHub config: "api_base_url" is not a URL`);
  }
  const repos = Array.isArray(c.repos) ? c.repos : typeof c.repo === "string" ? [c.repo] : [];
  if (!repos.length || !repos.every((r) => typeof r === "string" && REPO.test(r))) throw new Error(`GitHub config: "repos" must list owner/name entries`);
  if (!/^\d+$/.test(str("installation_id"))) throw new Error(`GitHub config: "installation_id" must be a number`);
  return {
    api_base_url: url.href.replace(/\/+$/, ""), app_id: str("app_id"), installation_id: str("installation_id"),
    key_file: str("key_file"), repos: repos as string[],
  };
}

interface Cursor {
  /** Index into `repos`. */
  i: number;
  /** The `rel="next"` URL of the page to fetch, or null to start repo `i` from `since`. */
  next: string | null;
  /** Per repo: the `since` this sync started from. */
  since: Record<string, string>;
  /** Per repo: the newest `updated_at` seen so far (the next sync's `since`). */
  seen: Record<string, string>;
}

/** The vendor factory for `github`. */
export const githubSource: VendorFactory = (raw, deps) => createGithubSource(parseGithubConfig(raw), deps);

/** Builds the source over a parsed config. */
export function createGithubSource(cfg: GithubConfig, deps: VendorDeps): ResumableSource {
  let token: { value: string; expires: number } | undefined;
  let key: CryptoKey | undefined;
  let resume: string | null = null;

  async function auth(): Promise<Record<string, string>> {
    const now = deps.now().getTime();
    if (!token || token.expires - now < 5 * 60_000) {
      key ??= await importAppKey(await deps.readSecret(cfg.key_file)).catch((e: Error) => {
        throw new VendorError("auth", e.message);
      });
      const jwt = await signAppJwt(key, cfg.app_id, deps.now());
      const r = await deps.http.postJson(`${cfg.api_base_url}/app/installations/${cfg.installation_id}/access_tokens`, base(jwt), {});
      const b = r.body as { token?: unknown; expires_at?: unknown } | null;
      if (!b || typeof b.token !== "string") throw new VendorError("malformed", "GitHub token exchange: no token in the answer");
      const exp = typeof b.expires_at === "string" ? Date.parse(b.expires_at) : NaN;
      token = { value: b.token, expires: Number.isFinite(exp) ? exp : now + 50 * 60_000 };
    }
    return base(token.value);
  }

  function listUrl(repo: string, since?: string): string {
    const q = new URLSearchParams({ state: "all", sort: "updated", direction: "asc", per_page: "100" });
    if (since) q.set("since", since);
    return `${cfg.api_base_url}/repos/${repo}/issues?${q}`;
  }

  async function list(url: string): Promise<{ items: Issue[]; next: string | null }> {
    const r = await deps.http.getJson(url, await auth());
    if (!Array.isArray(r.body)) throw new VendorError("malformed", "GitHub issue list: the answer is not an array");
    const next = nextLink(r.headers.get("link"));
    if (next === url) throw new VendorError("repeated_cursor", "GitHub issue list: the next page repeats the current one");
    return { items: r.body.filter(isIssueLike), next };
  }

  async function comments(repo: string, n: number): Promise<Comment[]> {
    const out: Comment[] = [];
    let url: string | null = `${cfg.api_base_url}/repos/${repo}/issues/${n}/comments?per_page=100`;
    for (let guard = 0; url && guard < 1000; guard++) {
      const r = await deps.http.getJson(url, await auth());
      if (!Array.isArray(r.body)) throw new VendorError("malformed", "GitHub comment list: the answer is not an array");
      out.push(...(r.body as Comment[]).filter((c) => c && typeof c === "object"));
      const next = nextLink(r.headers.get("link"));
      url = next === url ? null : next;
    }
    return out;
  }

  return {
    kind: "github",
    async page(cursorText) {
      const c = readCursor(cursorText, cfg.repos.length);
      const repo = cfg.repos[c.i]!;
      const { items, next } = await list(c.next ?? listUrl(repo, c.since[repo]));
      const records: ConnectorRecord[] = [];
      for (const it of items) {
        if (typeof it.updated_at === "string" && !(c.seen[repo] && c.seen[repo]! >= it.updated_at)) c.seen[repo] = it.updated_at;
        if (it.pull_request) continue;
        const cs = typeof it.comments === "number" && it.comments > 0 ? await comments(repo, it.number) : [];
        records.push({ path: issuePath(repo, it.number), rev: String(it.updated_at ?? ""), markdown: issueMarkdown(repo, it, cs) });
      }
      if (next) return { records, cursor: JSON.stringify({ ...c, next }) };
      if (c.i + 1 < cfg.repos.length) return { records, cursor: JSON.stringify({ ...c, i: c.i + 1, next: null }) };
      resume = JSON.stringify({ i: 0, next: null, since: { ...c.since, ...c.seen }, seen: {} } satisfies Cursor);
      return { records, cursor: null };
    },
    async livePaths() {
      const paths: string[] = [];
      for (const repo of cfg.repos) {
        let url: string | null = listUrl(repo);
        while (url) {
          const { items, next } = await list(url);
          for (const it of items) if (!it.pull_request) paths.push(issuePath(repo, it.number));
          url = next;
        }
      }
      return paths;
    },
    resumeCursor: () => resume,
  };
}

interface Issue {
  number: number;
  title?: string;
  body?: string | null;
  state?: string;
  html_url?: string;
  updated_at?: string;
  created_at?: string;
  comments?: number;
  labels?: (string | { name?: string })[];
  user?: { login?: string } | null;
  pull_request?: unknown;
}

interface Comment {
  body?: string | null;
  user?: { login?: string } | null;
  created_at?: string;
  html_url?: string;
}

function isIssueLike(x: unknown): x is Issue {
  return typeof x === "object" && x !== null && Number.isInteger((x as Issue).number);
}

function base(bearer: string): Record<string, string> {
  return {
    authorization: `Bearer ${bearer}`, accept: "application/vnd.github+json", "x-github-api-version": API_VERSION,
    "user-agent": "cairn-connector",
  };
}

/** The source path of an issue (the sources row key). */
export function issuePath(repo: string, n: number): string {
  return `github/${repo}/issues/${n}`;
}

/** The `rel="next"` target of a `Link` header (RFC 8288), or null. */
export function nextLink(link: string | null): string | null {
  if (!link) return null;
  for (const part of link.split(",")) {
    const m = /<([^>]*)>\s*;(.*)/.exec(part.trim());
    if (m && /\brel\s*=\s*"?([^";]*\s)?next(\s[^";]*)?"?/.test(m[2]!)) return m[1]!;
  }
  return null;
}

function readCursor(text: string | null, repos: number): Cursor {
  const fresh: Cursor = { i: 0, next: null, since: {}, seen: {} };
  if (text === null) return fresh;
  try {
    const c = JSON.parse(text) as Cursor;
    if (Number.isInteger(c.i) && c.i >= 0 && c.i < repos && typeof c.since === "object" && typeof c.seen === "object") return c;
  } catch { /* fall through */ }
  return fresh; // a cursor from another config shape: start over (unchanged revisions are no-ops)
}

/** The `/ingest/markdown` form of an issue and its comments. */
export function issueMarkdown(repo: string, it: Issue, comments: Comment[]): string {
  const labels = (it.labels ?? []).map((l) => (typeof l === "string" ? l : l?.name)).filter((l): l is string => typeof l === "string" && l !== "");
  const title = (it.title ?? "").trim() || `Issue #${it.number}`;
  const fm = [
    "---", `title: ${JSON.stringify(title)}`, `tags: ${JSON.stringify(labels)}`, `state: ${JSON.stringify(it.state ?? "open")}`,
    `source_url: ${JSON.stringify(it.html_url ?? "")}`, `repo: ${JSON.stringify(repo)}`, `number: ${it.number}`,
    `updated_at: ${JSON.stringify(it.updated_at ?? "")}`, "---",
  ];
  const out = [...fm, "", `# ${title}`, "", (it.body ?? "").trim()];
  if (comments.length) {
    out.push("", "## Comments");
    for (const c of comments) out.push("", `### ${c.user?.login ?? "unknown"} (${c.created_at ?? ""})`, "", (c.body ?? "").trim());
  }
  return out.join("\n").trimEnd() + "\n";
}
