import { count, create, insert, search } from "@orama/orama";
import { describe, expect, it } from "vitest";
import { createBm25IndexComponent, neutralizeLex } from "../../src/lexical/orama-index-component.ts";
import { createIdOnlyDocumentsStore } from "../../src/lexical/orama-documents-store.ts";
import { createOramaLexicalIndex } from "../../src/lexical/orama-lexical-index.ts";
import { createCairnTokenizer } from "../../src/lexical/orama-tokenizer.ts";

describe("Orama components", () => {
  it("the tokenizer keeps duplicate tokens, unlike Orama's default", () => {
    expect(createCairnTokenizer().tokenize("apple apple pie")).toEqual(["appl", "appl", "pie"]);
  });

  it("the documents store keeps ids, not document text", () => {
    const idx = createOramaLexicalIndex();
    idx.add({ id: 1, title: "secret title", content: "some very secret content" });
    const docs = idx.db.data.docs as unknown as { docs: object; ids: Set<number> };
    expect(docs.ids.size).toBe(1);
    expect(JSON.stringify(docs.docs)).toBe("{}");
    expect(JSON.stringify(idx.toJSON())).not.toContain("secret content");
  });

  it("works through Orama's public create/insert/search with the components plugged in", () => {
    const params = { k1: 1.2, b: 0.75, titleWeight: 1 };
    const db = create({
      schema: { title: "string", content: "string" } as const,
      sort: { enabled: false },
      components: { tokenizer: createCairnTokenizer(), index: createBm25IndexComponent(params), documentsStore: createIdOnlyDocumentsStore() },
    });
    insert(db, { id: "1", title: "Kiwi", content: "kiwi kiwi fruit" });
    insert(db, { id: "2", title: "", content: "kiwifruit salad" });
    const r = search(db, { term: "kiwi" }) as { hits: { id: string }[] };
    expect(count(db)).toBe(2);
    expect(r.hits.map((h) => h.id)).toEqual(["1"]); // no prefix match on "kiwifruit"
  });

  it("refuses schemas other than title and content strings", () => {
    expect(() =>
      create({ schema: { body: "string" } as const, components: { index: createBm25IndexComponent({ k1: 1, b: 0.5, titleWeight: 1 }) } }),
    ).toThrow(/title and content/);
  });

  it("neutralizeLex strips quotes and leading dashes only", () => {
    expect(neutralizeLex('"a b" -c d-e --f')).toBe(" a b  c d-e f");
  });

  it("removing an unknown id does not mint an Orama internal id", () => {
    const idx = createOramaLexicalIndex();
    idx.add({ id: 1, content: "x" });
    idx.remove(77);
    expect(idx.db.internalDocumentIDStore.internalIdToId).toEqual(["1"]);
  });
});
