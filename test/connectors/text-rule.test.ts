/**
 * The text-field rule at the connector door (docs/limits.md "Text fields"): a
 * vendor record whose text holds a NUL or a lone surrogate is refused on its
 * own (counted and named in the sync summary), never stored cut, and never
 * stops the sync: the other records of its page are written and the cursor
 * moves on.
 */
import { describe, expect, it } from "vitest";
import { issue, useGithubFixture } from "./_github-fixture.ts";

const f = useGithubFixture();
const { register, chunkCount } = f;

describe("GitHub connector and the text-field rule", () => {
  it("refuses the one issue whose body holds a NUL, writes the others, and names it in the summary", async () => {
    f.gh.issues.set(2, issue(2, "Dark mode", "Please add\u0000 a dark mode to the settings page.", { labels: ["enhancement", "ui"] }));
    f.gh.issues.set(3, issue(3, "Crash \ud800 on export", "Exporting a report crashes the app."));
    await register();
    const s = await f.t.memory.connectors.sync({ kind: "github", instance: "main" });
    expect(s.error).toBeUndefined();
    expect(s).toMatchObject({ state: "idle", created: 2, records_refused: 2 });
    expect(s.refused).toEqual([
      { path: expect.stringContaining("2"), field: "markdown", reason: "nul" },
      { path: expect.stringContaining("3"), field: "markdown", reason: "lone_surrogate" },
    ]);
    expect(await chunkCount()).toBe(2);
    const stored = (await f.t.memory.db.client.execute("SELECT count(*) AS n FROM chunks WHERE instr(CAST(content AS BLOB), X'00') > 0")).rows[0];
    expect(Number(stored.n)).toBe(0);
  });
});
