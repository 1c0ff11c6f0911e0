import { describe, expect, it } from "vitest";
import { contentWords, loadVault } from "../../fixtures/graph-eval/load-vault.ts";
import { matchEntityNames } from "../../src/graph/seeds.ts";
import { type NodeRef, traverse, type TraverseEdge } from "../../src/graph/traverse.ts";

const vault = loadVault();
const known = (n: string) => vault.entityId.has(n);
const names = new Map([...vault.entityId].map(([n, id]) => [id, n]));
const touching = new Map<number, TraverseEdge[]>();
vault.edges.forEach((e, i) => {
  const edge = { id: i + 1, type: e.type, from: { id: e.from, name: names.get(e.from)! }, to: { id: e.to, name: names.get(e.to)! } };
  for (const id of [e.from, e.to]) touching.set(id, [...(touching.get(id) ?? []), edge]);
});
const port = (n: NodeRef) => touching.get(n.id) ?? [];

describe("graph-eval fixture", () => {
  it("has 30 to 60 notes and at least 20 questions with existing answers", () => {
    expect(vault.notes.length).toBeGreaterThanOrEqual(30);
    expect(vault.notes.length).toBeLessThanOrEqual(60);
    expect(vault.questions.length).toBeGreaterThanOrEqual(20);
    const files = new Set(vault.notes.map((n) => n.file));
    for (const q of vault.questions) for (const a of q.answers) expect(files.has(a), `${q.id}: ${a}`).toBe(true);
  });

  it("every extracted edge endpoint is a valid entity and every note has edges", () => {
    for (const e of vault.named) expect(`${e.from}|${e.to}`).toMatch(/^[A-Za-z0-9 _-]{1,100}\|[A-Za-z0-9 _-]{1,100}$/);
    for (const n of vault.notes) expect(touching.get(vault.entityId.get(n.entity)!)?.length ?? 0, n.file).toBeGreaterThan(0);
  });

  it.each(vault.questions.map((q) => [q.id, q] as const))("%s: answer notes share no content word with the question", (_id, q) => {
    const qWords = contentWords(q.question);
    for (const file of q.answers) {
      const note = vault.notes.find((n) => n.file === file)!;
      const shared = [...contentWords(`${file} ${note.raw}`)].filter((w) => qWords.has(w));
      expect(shared, `${q.id} vs ${file}`).toEqual([]);
    }
  });

  it.each(vault.questions.map((q) => [q.id, q] as const))("%s: the named entities lead to the answers along the stated path", async (_id, q) => {
    const seeds = matchEntityNames(q.question, known);
    for (const e of q.entities) expect(seeds, q.id).toContain(e.toLowerCase());
    for (const step of q.path) {
      const m = /^(.+?) ([a-z_]+) (.+)$/.exec(step)!;
      const found = vault.named.some((e) => e.from.toLowerCase() === m[1].toLowerCase() && e.type === m[2] && e.to.toLowerCase() === m[3].toLowerCase());
      expect(found, `${q.id}: edge "${step}"`).toBe(true);
    }
    const reached = new Set<number>();
    for (const s of q.entities) {
      const id = vault.entityId.get(s.toLowerCase())!;
      const walk = await traverse({ id, name: s }, port, { maxDepth: 4 });
      for (const n of walk.nodes) reached.add(n.id);
    }
    for (const file of q.answers) {
      const note = vault.notes.find((n) => n.file === file)!;
      expect(reached.has(vault.entityId.get(note.entity)!), `${q.id}: ${file} reachable`).toBe(true);
    }
  });
});
