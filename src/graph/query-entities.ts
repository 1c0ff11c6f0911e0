/**
 * Finds the entities a recall query names (SPEC §1 step 6: the graph leg
 * is seeded from the entities matched in the query). Names are compared as
 * the store keeps them (SPEC §2.6: case-insensitive), so the query is
 * cleaned to the entity-name charset the same way names are (`'` and `.`
 * dropped inside words, other characters become spaces), lowercased and
 * split into words. Matching is greedy, longest phrase first, without
 * overlaps: "Priya Raman" wins over "Priya" when both are entities. A
 * single word that is an English stopword never matches ("The", "It").
 */
import { ENGLISH_STOPWORDS } from "../lexical/stopwords.ts";

/** A matched phrase: its key (lowercased entity name) and word span in the cleaned query. */
export interface QueryMatch {
  name: string;
  start: number;
  end: number;
}

/** The cleaned, lowercased words of a query. */
export function queryWords(query: string): string[] {
  return query.replace(/['’.]/g, "").replace(/[^A-Za-z0-9 _-]+/g, " ").toLowerCase().split(/\s+/).filter((w) => w.length > 0);
}

/**
 * Matches query phrases against entity names: `isName(key)` says whether
 * a key is an entity name; `maxWords` bounds the phrase length tried.
 */
export function matchQueryEntities(query: string, isName: (key: string) => boolean, maxWords: number): QueryMatch[] {
  const words = queryWords(query);
  const out: QueryMatch[] = [];
  let i = 0;
  while (i < words.length) {
    let hit: QueryMatch | undefined;
    for (let len = Math.min(maxWords, words.length - i); len >= 1; len--) {
      const key = words.slice(i, i + len).join(" ");
      if (len === 1 && ENGLISH_STOPWORDS.has(key)) continue;
      if (isName(key)) {
        hit = { name: key, start: i, end: i + len };
        break;
      }
    }
    if (hit) {
      out.push(hit);
      i = hit.end;
    } else i++;
  }
  return out;
}
