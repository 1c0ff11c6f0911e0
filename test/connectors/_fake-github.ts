// A loopback fake of GitHub's REST API (node:http) for the connector tests: it verifies the App JWT (RS256 with the
// public key of a key pair made by the test) at the token exchange, checks the installation token on every other
// call, lists issues with `Link` pagination and can answer one 429 with Retry-After.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicKey, createVerify, generateKeyPairSync, type KeyObject } from "node:crypto";

/** A fake issue (GitHub's fields that the connector reads). */
export interface FakeIssue {
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  labels: string[];
  updated_at: string;
  comments: { body: string; login: string; created_at: string }[];
  pull_request?: boolean;
}

/** An App key pair: the PKCS#1 PEM GitHub hands out, and the public key the fake verifies with. */
export function appKeyPair(): { pem: string; publicKey: KeyObject } {
  const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { pem: privateKey.export({ type: "pkcs1", format: "pem" }).toString(), publicKey: createPublicKey(publicKey.export({ type: "spki", format: "pem" })) };
}

/** Starts the fake for repo `owner/name`, App `appId`, installation `installId`. */
export async function startFakeGithub(o: { publicKey: KeyObject; appId: string; installId: string; repo: string; perPage?: number; now?: () => Date }) {
  const issues = new Map<number, FakeIssue>();
  const seen: { method: string; url: string }[] = [];
  const tokens = new Set<string>();
  const jwtErrors: string[] = [];
  const state = { nextOrigin: "", rateLimitOnce: false, malformedPage: 0, redirect: false, tokenExchanges: 0 };
  let origin = "";
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  };
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", origin);
    seen.push({ method: req.method ?? "", url: url.pathname + url.search });
    if (req.headers.accept !== "application/vnd.github+json" || req.headers["x-github-api-version"] !== "2022-11-28") {
      return send(res, 415, { message: "Unsupported media type" });
    }
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (req.method === "POST" && url.pathname === `/app/installations/${o.installId}/access_tokens`) {
      const problem = auth ? verifyJwt(auth, o.publicKey, o.appId, (o.now ?? (() => new Date()))()) : "no bearer";
      if (problem) {
        jwtErrors.push(problem);
        return send(res, 401, { message: "A JSON web token could not be decoded", documentation_url: "https://docs.github.com/rest" });
      }
      state.tokenExchanges++;
      const token = `ghs_${Math.random().toString(36).slice(2)}`;
      tokens.add(token);
      return send(res, 201, { token, expires_at: new Date(Date.now() + 3600_000).toISOString(), permissions: { issues: "read" } });
    }
    if (!auth || !tokens.has(auth)) return send(res, 401, { message: "Bad credentials", documentation_url: "https://docs.github.com/rest" });
    if (req.method !== "GET") return send(res, 404, { message: "Not Found" });
    if (state.redirect) return send(res, 301, { message: "Moved Permanently" }, { location: `${origin}/repositories/1/issues` });
    const list = new RegExp(`^/repos/${o.repo}/issues$`).exec(url.pathname);
    if (list) {
      if (state.rateLimitOnce) {
        state.rateLimitOnce = false;
        return send(res, 429, { message: "API rate limit exceeded" }, { "retry-after": "60", "x-ratelimit-remaining": "0" });
      }
      const page = Number(url.searchParams.get("page") ?? "1");
      if (state.malformedPage === page) return send(res, 200, "[{\"number\": 1, \"title\": ");
      const per = Math.min(Number(url.searchParams.get("per_page") ?? "30"), o.perPage ?? 100);
      const since = url.searchParams.get("since");
      const all = [...issues.values()].filter((i) => !since || i.updated_at >= since)
        .sort((a, b) => (a.updated_at < b.updated_at ? -1 : a.updated_at > b.updated_at ? 1 : a.number - b.number));
      const slice = all.slice((page - 1) * per, page * per);
      const headers: Record<string, string> = {};
      const links: string[] = [];
      const at = (p: number) => {
        const u = new URL(url);
        if (state.nextOrigin) u.host = new URL(state.nextOrigin).host;
        u.searchParams.set("page", String(p));
        return u.href;
      };
      if (page * per < all.length) links.push(`<${at(page + 1)}>; rel="next"`, `<${at(Math.ceil(all.length / per))}>; rel="last"`);
      if (page > 1) links.push(`<${at(1)}>; rel="first"`, `<${at(page - 1)}>; rel="prev"`);
      if (links.length) headers.link = links.join(", ");
      return send(res, 200, slice.map((i) => toWire(origin, o.repo, i)), headers);
    }
    const cm = new RegExp(`^/repos/${o.repo}/issues/(\\d+)/comments$`).exec(url.pathname);
    if (cm) {
      const i = issues.get(Number(cm[1]));
      if (!i) return send(res, 404, { message: "Not Found" });
      return send(res, 200, i.comments.map((c, k) => ({
        id: i.number * 1000 + k, body: c.body, user: { login: c.login }, created_at: c.created_at, updated_at: c.created_at,
        html_url: `https://github.com/${o.repo}/issues/${i.number}#issuecomment-${k}`,
      })));
    }
    send(res, 404, { message: "Not Found", documentation_url: "https://docs.github.com/rest" });
  };
  const server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin, issues, seen, state, jwtErrors,
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}

function toWire(origin: string, repo: string, i: FakeIssue): Record<string, unknown> {
  const w: Record<string, unknown> = {
    url: `${origin}/repos/${repo}/issues/${i.number}`, html_url: `https://github.com/${repo}/issues/${i.number}`,
    id: 1_000_000 + i.number, number: i.number, title: i.title, body: i.body, state: i.state, user: { login: "octocat", id: 1 },
    labels: i.labels.map((name, k) => ({ id: k + 1, name, color: "ededed" })), comments: i.comments.length,
    created_at: "2026-01-01T00:00:00Z", updated_at: i.updated_at,
  };
  if (i.pull_request) w.pull_request = { url: `${origin}/repos/${repo}/pulls/${i.number}` };
  return w;
}

/** Verifies an RS256 App JWT; returns what is wrong with it, or undefined. */
function verifyJwt(jwt: string, key: KeyObject, appId: string, at: Date): string | undefined {
  const [h, p, s] = jwt.split(".");
  if (!h || !p || !s) return "not a JWT";
  const header = JSON.parse(Buffer.from(h, "base64url").toString());
  if (header.alg !== "RS256") return "alg is not RS256";
  const v = createVerify("RSA-SHA256");
  v.update(`${h}.${p}`);
  if (!v.verify(key, Buffer.from(s, "base64url"))) return "bad signature";
  const claims = JSON.parse(Buffer.from(p, "base64url").toString());
  const now = Math.floor(at.getTime() / 1000);
  if (String(claims.iss) !== appId) return "wrong iss";
  if (!(claims.iat <= now && claims.exp > now && claims.exp - claims.iat <= 660)) return "bad iat/exp";
  return undefined;
}
