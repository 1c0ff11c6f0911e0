/**
 * The operator web client at `/app` (SPEC §4.3, §4.8; issue 19): public page
 * shells and assets (no data), and gated HTML fragments rendered with
 * `hono/jsx` from the same services the JSON API calls (the composition
 * root). Mutations never come here: the client script calls the JSON API
 * (`/proposals/:id/approve`, `/quarantine/:id/release`, …) with the bearer,
 * so every action is gated and audited exactly as the API is, and no cookie
 * ever authorizes anything (CSRF-safe by construction).
 */
import type { Context, Hono } from "hono";
import { MemoryError } from "../core/errors.ts";
import { piiReadOf } from "../http/principal.ts";
import { umpActor } from "../http/routes/ump.ts";
import type { Memory } from "../memory.ts";
import { APP_CSS } from "./assets/app-css.ts";
import { APP_JS } from "./assets/app-js.ts";
import { Page, PANELS, type Panel } from "./layout.tsx";
import { gatherOps, OpsPanel } from "./ops-panel.tsx";
import { QuarantineList } from "./quarantine-panel.tsx";
import { RecallForm, RecallResult } from "./recall-panel.tsx";
import { RegisterPanel } from "./register-panel.tsx";
import { ProposalCard, ReviewList, SuggestChoice, type ReviewSort } from "./review-panel.tsx";
import { clip } from "./format.ts";

// Everything is served by the app itself; inline script and style are refused, so injected text can never run.
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
  + "form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

function secure(c: Context, cache: string): void {
  c.header("Content-Security-Policy", CSP);
  c.header("X-Content-Type-Options", "nosniff");
  c.header("Referrer-Policy", "no-referrer");
  c.header("X-Frame-Options", "DENY");
  c.header("Cache-Control", cache);
}

const INTROS: Record<Panel["id"], string> = {
  review: "Proposals wait here until a person approves or rejects them. What you approve is exactly the text shown: the approval carries its digest, so a change since you opened it is refused.",
  quarantine: "Rows the injection screen flagged. They are stored but excluded from recall until released; delete removes them for good.",
  ops: "Review clocks against their targets, what is flagged, and whether the gate is healthy.",
  register: "Portable (UMP) memories agents have written, by owner and kind. Read-only.",
  recall: "See what an agent would be told for a query, and why each hit ranked where it did.",
};

const SORTS: Record<string, ReviewSort> = { newest: "newest", score: "score" };

function idOf(raw: string | undefined): number {
  if (raw === undefined || !/^[0-9]{1,15}$/.test(raw) || Number(raw) < 1) throw new MemoryError("invalid_id", "id must be a positive integer", { field: "id" }, 400);
  return Number(raw);
}

/** Registers the `/app` pages, assets and fragments. */
export function webRoutes(app: Hono, memory: Memory): void {
  const now = () => memory.write.clock();
  for (const panel of PANELS) {
    app.get(panel.path, (c) => {
      secure(c, "no-cache");
      const tools = panel.id === "review"
        ? (
          <form class="query" id="review-sort">
            <label for="sort">Order</label>
            <select id="sort" name="sort">
              <option value="newest">Newest first</option>
              <option value="score">Highest score first</option>
            </select>
          </form>
        )
        : panel.id === "recall" ? RecallForm() : undefined;
      // Standards mode needs the doctype, which JSX cannot express.
      return c.html(`<!doctype html>${String(<Page panel={panel} intro={INTROS[panel.id]} tools={tools} />)}`);
    });
  }
  app.get("/app/assets/app.css", (c) => {
    secure(c, "public, max-age=3600");
    return c.body(APP_CSS, 200, { "Content-Type": "text/css; charset=utf-8" });
  });
  app.get("/app/assets/app.js", (c) => {
    secure(c, "public, max-age=3600");
    return c.body(APP_JS, 200, { "Content-Type": "text/javascript; charset=utf-8" });
  });

  const fragment = (c: Context, node: unknown) => {
    secure(c, "no-store");
    return c.html(node as string);
  };
  app.get("/app/fragments/review", async (c) => {
    const sort = SORTS[c.req.query("sort") ?? "newest"] ?? "newest";
    const list = await memory.review.list({ status: "pending", limit: 500, piiRead: piiReadOf(c) });
    return fragment(c, <ReviewList list={list} sort={sort} now={now()} more={list.length === 500} />);
  });
  app.get("/app/fragments/review/:id", async (c) => {
    const p = await memory.review.get(idOf(c.req.param("id")), { piiRead: piiReadOf(c) });
    if (p.status !== "pending") throw new MemoryError("proposal_not_pending", `proposal ${p.id} is already ${p.status}`, { status: p.status }, 409);
    return fragment(c, <ProposalCard p={p} now={now()} />);
  });
  app.get("/app/fragments/suggest/:id", async (c) => {
    const id = idOf(c.req.param("id"));
    const p = await memory.review.get(id, { piiRead: piiReadOf(c) });
    let hits: { id: number; title?: string; content: string }[] = [];
    try {
      const r = await memory.recall({ query: clip(`${p.title ?? ""} ${p.content}`.trim(), 300), limit: 5 }, { piiRead: piiReadOf(c) });
      hits = Array.isArray(r.hits) ? r.hits as typeof hits : [];
    } catch (e) {
      // A proposal whose text the query screen refuses simply has no suggestions.
      if (!(e instanceof MemoryError)) throw e;
    }
    return fragment(c, <SuggestChoice id={id} hits={hits} />);
  });
  app.get("/app/fragments/quarantine", async (c) => {
    const page = await memory.quarantine.list({ limit: 500, piiRead: piiReadOf(c) });
    // Which flagged rows were promoted by an approval (the first of the two keys): chunk id → proposal id.
    const approvedFrom = new Map<number, number>();
    const flagged = new Set(page.items.map((q) => q.id));
    for (let after = 0; flagged.size > 0;) {
      const batch = await memory.review.list({ status: "approved", after, limit: 500 });
      for (const p of batch) if (p.promoted_chunk_id !== null && flagged.has(p.promoted_chunk_id)) approvedFrom.set(p.promoted_chunk_id, p.id);
      if (batch.length < 500) break;
      after = batch[batch.length - 1]!.id;
    }
    return fragment(c, <QuarantineList items={page.items} more={page.next_after !== undefined} now={now()} approvedFrom={approvedFrom} />);
  });
  app.get("/app/fragments/ops", async (c) => fragment(c, <OpsPanel d={await gatherOps(memory, now())} />));
  app.get("/app/fragments/register", async (c) => {
    const actor = await umpActor(c, memory, false);
    return fragment(c, <RegisterPanel r={await memory.ump.register(actor)} />);
  });
  app.get("/app/fragments/recall", async (c) => {
    const q = c.req.query("q") ?? "";
    const body = await memory.recall({ query: q, provenance: true, limit: 10 }, { piiRead: piiReadOf(c) });
    return fragment(c, <RecallResult query={q} body={body} />);
  });
}
