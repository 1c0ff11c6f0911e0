/**
 * The verb-pattern table of the deterministic linker (SPEC §2.6 edge source
 * 3). A pattern is the exact text allowed between two entity mentions
 * (lowercased, whitespace collapsed, an optional leading adverb from
 * `ADVERBS` and an optional trailing `the`/`a`/`an` removed). `inverse`
 * patterns are passive forms: "X was founded by Y" gives `X founded_by Y`,
 * "X is owned by Y" gives `Y owns X`. The table is mirrored in
 * `src/graph/README.md`; a test walks every row.
 */

/** One row: the relation type, the phrases that express it, and the phrases that express it with subject and object swapped. */
export interface VerbPattern {
  type: string;
  active: readonly string[];
  inverse: readonly string[];
  /** Only match when the object mention ends its clause (followed by punctuation or line end). */
  objectEndsClause?: boolean;
}

/** The pattern table, one row per relation type. */
export const VERB_PATTERNS: readonly VerbPattern[] = [
  { type: "part_of", active: ["is part of", "is a part of", "belongs to", "is a component of", "is a subsidiary of"], inverse: ["includes", "contains"] },
  { type: "member_of", active: ["is a member of", "joined"], inverse: [] },
  { type: "depends_on", active: ["depends on", "relies on", "requires"], inverse: ["is required by", "is a dependency of"] },
  { type: "replaces", active: ["replaced", "replaces", "supersedes", "superseded"], inverse: ["was replaced by", "is replaced by", "is being replaced by", "was superseded by"] },
  { type: "works_at", active: ["works at", "works for", "is employed by"], inverse: ["employs"] },
  // "Ledger is a Go service" must not give `Ledger is_a Go`: the object has to end the clause.
  { type: "is_a", active: ["is a", "is an"], inverse: [], objectEndsClause: true },
  { type: "uses", active: ["uses"], inverse: ["is used by"] },
  { type: "owns", active: ["owns"], inverse: ["is owned by"] },
  { type: "located_in", active: ["is located in", "is based in", "is headquartered in"], inverse: [] },
  { type: "reports_to", active: ["reports to"], inverse: [] },
  { type: "founded_by", active: ["was founded by", "was co-founded by"], inverse: ["founded", "co-founded"] },
  { type: "manages", active: ["manages", "leads", "heads"], inverse: ["is managed by", "is led by", "is headed by"] },
  { type: "married_to", active: ["is married to"], inverse: [] },
  { type: "created", active: ["built", "created", "wrote", "designed", "developed"], inverse: ["was built by", "was created by", "was written by", "was designed by", "was developed by"] },
  { type: "maintains", active: ["maintains"], inverse: ["is maintained by"] },
  { type: "runs_on", active: ["runs on", "is hosted on", "is deployed on", "is deployed to"], inverse: [] },
  { type: "calls", active: ["calls", "sends requests to"], inverse: ["is called by"] },
  { type: "mentors", active: ["mentors"], inverse: ["is mentored by"] },
  { type: "on_call_for", active: ["is on call for", "is on-call for", "carries the pager for"], inverse: [] },
  { type: "caused", active: ["caused", "triggered"], inverse: ["was caused by", "was triggered by"] },
  { type: "affected", active: ["affected", "impacted", "took down"], inverse: ["was affected by", "was impacted by"] },
];

/** Adverbs allowed right after the subject ("Ledger also uses Redis"). */
export const ADVERBS: readonly string[] = ["also", "now", "still", "currently", "directly", "recently", "officially", "originally"];

/** Words that join mentions into a list ("Postgres and Redis", "A, B, and C"). */
export const LIST_JOINERS: readonly string[] = ["and", ",", ", and", "as well as"];

/** A resolved pattern: the type and whether subject and object swap. */
export interface PatternHit {
  type: string;
  inverse: boolean;
  objectEndsClause: boolean;
}

/** Phrase → pattern lookup built from the table (throws at load on a duplicate phrase). */
export const PHRASES: ReadonlyMap<string, PatternHit> = (() => {
  const m = new Map<string, PatternHit>();
  for (const row of VERB_PATTERNS) {
    for (const [list, inverse] of [[row.active, false], [row.inverse, true]] as const) {
      for (const phrase of list) {
        if (m.has(phrase)) throw new Error(`Duplicate linker phrase "${phrase}"`);
        m.set(phrase, { type: row.type, inverse, objectEndsClause: row.objectEndsClause === true });
      }
    }
  }
  return m;
})();
