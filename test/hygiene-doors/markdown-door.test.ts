import { createClient } from "@libsql/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory;
beforeEach(async () => { t = await openTestMemory({ CAIRN_INGEST_SKIP_PATTERNS: "Note" }); });
afterEach(async () => { await t.close(); });

async function rows(sql: string) {
  const c = createClient({ url: `file:${t.dbPath}` });
  const rs = await c.execute(sql);
  c.close();
  return rs.rows;
}

const SHORT = `---
tags: [ops, payments]
aliases: [Ledger]
---
# Ledger service

Note: <think>kept</think> the ledger [[depends_on::Postgres]] settles nightly.
`;

describe("POST /ingest/markdown", () => {
  it("stores a short document as one chunk, its body verbatim, front matter as metadata (issue 22), stamped markdown, with tags, aliases and annotations kept", async () => {
    const res = await t.req("POST", "/ingest/markdown", { title: "Ledger", content: SHORT });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ status: "created", domain: "global", chunks: [{ status: "created", heading_path: ["Ledger service"], line_start: 5 }] });
    expect(res.headers.get("deprecation")).toBeNull();
    const [r] = await rows("SELECT content, source, origin, meta FROM chunks");
    const fmEnd = SHORT.indexOf("\n---\n") + 5;
    expect(r.content).toBe(SHORT.slice(fmEnd).replace(/^\n+/, ""));
    expect(r.source).toBe("markdown");
    expect(r.origin).toBe("imported");
    const meta = JSON.parse(String(r.meta));
    expect(meta).toMatchObject({ tags: ["ops", "payments"], aliases: ["Ledger"], annotations: ["[[depends_on::Postgres]]"], frontmatter: SHORT.slice(4, fmEnd - 5) });
  });

  it("splits a long document into heading-aware chunks with line spans, in one transaction", async () => {
    const para = (n: number) => Array.from({ length: 12 }, (_, i) => `Sentence ${n}.${i} about the storage engine and its write-ahead log.`).join(" ");
    const doc = `# Guide\n\nIntro ${para(0)}\n\n## Install\n\n${para(1)}\n\n${para(2)}\n\n## Operate\n\n${para(3)}\n`;
    const body = await (await t.req("POST", "/ingest/markdown", { title: "Guide", content: doc })).json();
    expect(body.chunks.length).toBeGreaterThan(2);
    const paths = body.chunks.map((c: { heading_path: string[] }) => c.heading_path.join("/"));
    expect(paths).toContain("Guide/Install");
    expect(paths).toContain("Guide/Operate");
    const lines = doc.split("\n");
    const stored = await rows("SELECT id, content FROM chunks ORDER BY id");
    for (const c of body.chunks) {
      const row = stored.find((r) => Number(r.id) === c.id)!;
      expect(String(row.content)).toBe(lines.slice(c.line_start - 1, c.line_end).join("\n"));
    }
    const audit = await (await t.req("GET", "/audit")).json();
    expect(audit.rows.filter((r: { action: string }) => r.action === "ingest_markdown")).toHaveLength(body.chunks.length);
  });

  it("is a duplicate the second time, with no writes", async () => {
    await t.req("POST", "/ingest/markdown", { title: "Ledger", content: SHORT });
    const again = await (await t.req("POST", "/ingest/markdown", { title: "Ledger", content: SHORT })).json();
    expect(again.status).toBe("duplicate");
    expect(await rows("SELECT id FROM chunks")).toHaveLength(1);
  });

  it("rejects bad input with the spec's codes and writes nothing", async () => {
    for (const [b, code] of [[{ content: "x" }, "title_invalid"], [{ title: "t", content: "" }, "content_empty"], [{ title: "t", content: "x", domain: "nope" }, "domain_invalid"]] as const) {
      const res = await t.req("POST", "/ingest/markdown", b);
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe(code);
    }
    expect(await rows("SELECT id FROM chunks")).toHaveLength(0);
  });

  it("serves evidence with the heading path and document line span through recall", async () => {
    const doc = `# Runbook\n\n## Backups\n\nSnapshots of the vault run hourly and are kept for thirty days.\n\n## Restores\n\n${"Restore drills happen quarterly with the platform team. ".repeat(40)}\n`;
    await t.req("POST", "/ingest/markdown", { title: "Runbook", content: doc });
    const hit = (await (await t.req("POST", "/recall", { query: "vault snapshots hourly" })).json()).hits[0];
    expect(hit.evidence.heading_path).toEqual(["Runbook", "Backups"]);
    const span = doc.split("\n").slice(hit.evidence.line_start - 1, hit.evidence.line_end).join("\n");
    expect(span).toContain("Snapshots of the vault run hourly");
    expect(span).not.toContain("Restore drills");
  });
});
