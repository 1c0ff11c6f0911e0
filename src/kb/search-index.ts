/**
 * The prebuilt offline search index of one site locale: an Orama database
 * built here and serialised with Orama's `save` (SPEC §4.12 `kb build`;
 * the design card's library). The browser loads it with `load` into a
 * database of the same schema (src/kb/site-assets.ts). This is a static
 * artifact for the published site, separate from recall's lexical index
 * (src/lexical/), which it never touches.
 */
import { create, insertMultiple, save } from "@orama/orama";

/** One searchable page: only `title` and `body` are indexed; `path` (site-relative) is carried. */
export interface SearchDoc {
  id: string;
  title: string;
  body: string;
  path: string;
}

/** Builds and serialises the index; documents are inserted in the given order, so equal input gives equal bytes. */
export async function buildSearchIndex(docs: readonly SearchDoc[]): Promise<string> {
  const db = create({ schema: { title: "string", body: "string" } as const });
  if (docs.length > 0) await insertMultiple(db, docs.map((d) => ({ ...d })), 1000);
  return JSON.stringify(save(db));
}
