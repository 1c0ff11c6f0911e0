/** KCS articles, revisions, translations and staleness over HTTP (issue 17; SPEC §3 approve row, §4.11, §7). */
import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
afterEach(async () => t?.close());

const CASE = "crm:zendesk:acme:4711";

async function json(res: Response, status: number) {
  const body = await res.json();
  expect(res.status, JSON.stringify(body)).toBe(status);
  return body;
}

/** Files a proposal and approves it with the digest the review view shows. */
async function approve(tm: TestMemory, proposalId: number) {
  const view = await json(await tm.req("GET", `/proposals/${proposalId}`), 200);
  return await json(await tm.req("POST", `/proposals/${proposalId}/approve?digest=${view.content_digest}`), 200);
}

async function capture(tm: TestMemory, body: Record<string, unknown>) {
  const p = await json(await tm.req("POST", "/ingest/proposal", { kind: "capture", ...body }), 200);
  return await approve(tm, p.id);
}

describe("KCS articles from approved captures", () => {
  it("an approved capture becomes a draft article at revision 1 linked to its case; a later capture for the case makes revision 2", async () => {
    t = await openTestMemory();
    const first = await capture(t, { title: "Printer jams on tray 2", content: "Open tray 2 and remove the roller cover.", source: CASE });
    expect(first.promoted_chunk_id).toBeTypeOf("number");
    const list = await json(await t.req("GET", "/kcs/articles"), 200);
    expect(list.articles).toHaveLength(1);
    const a = list.articles[0];
    expect(a).toMatchObject({ revision: 1, title: "Printer jams on tray 2", locale: "en", case_ref: CASE, status: "draft", domain: "global" });

    await capture(t, { title: "Printer jams on tray 2", content: "Open tray 2, remove the roller cover and clean the roller.", source: CASE });
    const art = await json(await t.req("GET", `/kcs/articles/${a.id}`), 200);
    expect(art.revision).toBe(2);
    expect(art.body).toBe("Open tray 2, remove the roller cover and clean the roller.");
    expect(art.revisions.map((r: { revision: number }) => r.revision)).toEqual([1, 2]);
    expect((await json(await t.req("GET", "/kcs/articles"), 200)).articles).toHaveLength(1);
    // The revision is audited in the approval's transaction.
    const audit = (await json(await t.req("GET", "/audit?action=kcs_revision"), 200)).rows;
    expect(audit.map((r: { detail: { revision: number } }) => r.detail.revision)).toEqual([1, 2]);
  });

  it("a capture with source kcs:<id> revises that article; an unknown id refuses the approval and leaves the proposal pending", async () => {
    t = await openTestMemory();
    await capture(t, { content: "# Reset a password\n\nUse the self-service page." });
    const [a] = (await json(await t.req("GET", "/kcs/articles"), 200)).articles;
    expect(a.title).toBe("Reset a password");
    expect(a.case_ref).toBeUndefined();
    await capture(t, { content: "# Reset a password\n\nUse the self-service page, then sign in again.", source: `kcs:${a.id}` });
    expect((await json(await t.req("GET", `/kcs/articles/${a.id}`), 200)).revision).toBe(2);

    const p = await json(await t.req("POST", "/ingest/proposal", { kind: "capture", content: "Orphan fix text", source: "kcs:999" }), 200);
    const view = await json(await t.req("GET", `/proposals/${p.id}`), 200);
    const res = await t.req("POST", `/proposals/${p.id}/approve?digest=${view.content_digest}`);
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("not_found");
    expect((await json(await t.req("GET", `/proposals/${p.id}`), 200)).status).toBe("pending");
  });

  it("plain memory proposals make no article, and an unknown article is 404 with the envelope", async () => {
    t = await openTestMemory();
    const p = await json(await t.req("POST", "/ingest/proposal", { content: "Just a memory" }), 200);
    await approve(t, p.id);
    expect((await json(await t.req("GET", "/kcs/articles"), 200)).articles).toEqual([]);
    const res = await t.req("GET", "/kcs/articles/42");
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("not_found");
    expect((await t.req("GET", "/kcs/articles/abc")).status).toBe(400);
  });
});

describe("POST /kcs/translate", () => {
  it("files a reviewable proposal; approval writes the locale row pinned to based_revision; a new revision marks it stale", async () => {
    t = await openTestMemory();
    await capture(t, { title: "Printer jams", content: "Remove the roller cover.", source: CASE });
    const [a] = (await json(await t.req("GET", "/kcs/articles"), 200)).articles;
    const filed = await json(await t.req("POST", "/kcs/translate", { article_id: a.id, locale: "de", title: "Drucker klemmt", body: "Die Walzenabdeckung entfernen." }), 201);
    expect(filed).toMatchObject({ status: "pending", article_id: a.id, locale: "de", based_revision: 1 });
    // Nothing is written before a human approves.
    expect((await json(await t.req("GET", `/kcs/articles/${a.id}`), 200)).translations).toEqual([]);
    const view = await json(await t.req("GET", `/proposals/${filed.proposal_id}`), 200);
    expect(view.status).toBe("pending");
    const ok = await approve(t, filed.proposal_id);
    expect(ok.promoted_chunk_id).toBeNull();
    expect(ok.effect).toMatchObject({ article_id: a.id, locale: "de", based_revision: 1, stale: false });

    let art = await json(await t.req("GET", `/kcs/articles/${a.id}`), 200);
    expect(art.translations).toEqual([expect.objectContaining({ locale: "de", title: "Drucker klemmt", body: "Die Walzenabdeckung entfernen.", based_revision: 1, stale: false })]);
    expect((await json(await t.req("GET", "/kcs/translations?stale=true"), 200)).translations).toEqual([]);

    await capture(t, { title: "Printer jams", content: "Remove the roller cover and clean the roller.", source: CASE });
    art = await json(await t.req("GET", `/kcs/articles/${a.id}`), 200);
    expect(art.translations[0]).toMatchObject({ locale: "de", based_revision: 1, current_revision: 2, stale: true });
    const stale = (await json(await t.req("GET", "/kcs/translations?stale=true"), 200)).translations;
    expect(stale).toEqual([expect.objectContaining({ article_id: a.id, locale: "de", stale: true })]);
    expect((await json(await t.req("GET", "/kcs/translations?stale=false"), 200)).translations).toEqual([]);

    // A fresh translation pinned to revision 2 clears it.
    const again = await json(await t.req("POST", "/kcs/translate", { article_id: a.id, locale: "de", title: "Drucker klemmt", body: "Abdeckung entfernen und Walze reinigen." }), 201);
    expect(again.based_revision).toBe(2);
    await approve(t, again.proposal_id);
    expect((await json(await t.req("GET", "/kcs/translations?stale=true"), 200)).translations).toEqual([]);
  });

  it("a translation pinned to an older revision is stale at once; a rejected one writes nothing", async () => {
    t = await openTestMemory();
    await capture(t, { title: "A", content: "one", source: CASE });
    await capture(t, { title: "A", content: "two", source: CASE });
    const [a] = (await json(await t.req("GET", "/kcs/articles"), 200)).articles;
    const old = await json(await t.req("POST", "/kcs/translate", { article_id: a.id, locale: "fr", title: "A", body: "un", based_revision: 1 }), 201);
    await approve(t, old.proposal_id);
    expect((await json(await t.req("GET", "/kcs/translations?stale=true"), 200)).translations).toEqual([expect.objectContaining({ locale: "fr", based_revision: 1 })]);
    const rej = await json(await t.req("POST", "/kcs/translate", { article_id: a.id, locale: "pt-br", title: "A", body: "dois" }), 201);
    expect(rej.locale).toBe("pt-BR");
    expect((await t.req("POST", `/proposals/${rej.proposal_id}/reject`)).status).toBe(200);
    expect((await json(await t.req("GET", `/kcs/articles/${a.id}`), 200)).translations.map((x: { locale: string }) => x.locale)).toEqual(["fr"]);
  });

  it("refuses an unknown article (404), a bad locale (400 locale_invalid), a bad revision and missing fields (400)", async () => {
    t = await openTestMemory();
    await capture(t, { title: "A", content: "one" });
    const [a] = (await json(await t.req("GET", "/kcs/articles"), 200)).articles;
    const cases: [unknown, number, string][] = [
      [{ article_id: 999, locale: "de", title: "x", body: "y" }, 404, "not_found"],
      [{ article_id: a.id, locale: "deutsch!", title: "x", body: "y" }, 400, "locale_invalid"],
      [{ article_id: a.id, locale: "<script>", title: "x", body: "y" }, 400, "locale_invalid"],
      [{ article_id: a.id, locale: "en", title: "x", body: "y" }, 400, "locale_invalid"],
      [{ article_id: a.id, locale: "de", title: "x", body: "y", based_revision: 5 }, 400, "invalid_request"],
      [{ article_id: "1", locale: "de", title: "x", body: "y" }, 400, "invalid_request"],
      [{ article_id: a.id, locale: "de", body: "y" }, 400, "title_invalid"],
      [{ article_id: a.id, locale: "de", title: "x", body: "" }, 400, "content_empty"],
      [[1, 2], 400, "invalid_request"],
    ];
    for (const [body, status, code] of cases) {
      const res = await t.req("POST", "/kcs/translate", body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect((await res.json()).error.code).toBe(code);
    }
    expect((await json(await t.req("GET", "/proposals?status=pending"), 200))).toEqual([]);
  });
});

describe("erasure", () => {
  it("deleting the chunk an article revision holds removes the revision; the last one takes the article and its translations", async () => {
    t = await openTestMemory();
    const one = await capture(t, { title: "A", content: "first text", source: CASE });
    const two = await capture(t, { title: "A", content: "second text", source: CASE });
    const [a] = (await json(await t.req("GET", "/kcs/articles"), 200)).articles;
    const tr = await json(await t.req("POST", "/kcs/translate", { article_id: a.id, locale: "de", title: "A", body: "zweiter Text" }), 201);
    await approve(t, tr.proposal_id);
    await json(await t.req("DELETE", `/memory/${two.promoted_chunk_id}`), 200);
    const art = await json(await t.req("GET", `/kcs/articles/${a.id}`), 200);
    expect(art).toMatchObject({ revision: 1, body: "first text" });
    await json(await t.req("POST", "/purge", { ids: [one.promoted_chunk_id] }), 200);
    expect((await t.req("GET", `/kcs/articles/${a.id}`)).status).toBe(404);
    expect((await json(await t.req("GET", "/kcs/translations"), 200)).translations).toEqual([]);
  });
});
