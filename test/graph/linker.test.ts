import { describe, expect, it } from "vitest";
import { extractRelations, findMentions } from "../../src/graph/linker.ts";
import { ADVERBS, PHRASES, VERB_PATTERNS } from "../../src/graph/patterns.ts";
import { isRelationType } from "../../src/graph/validate.ts";

const triples = (text: string) => extractRelations(text).map((r) => [r.from, r.type, r.to]);

describe("pattern table", () => {
  const rows = VERB_PATTERNS.flatMap((row) => [
    ...row.active.map((phrase) => ({ type: row.type, phrase, inverse: false })),
    ...row.inverse.map((phrase) => ({ type: row.type, phrase, inverse: true })),
  ]);

  it("has 15 to 25 relation types, all valid relation types", () => {
    expect(VERB_PATTERNS.length).toBeGreaterThanOrEqual(15);
    expect(VERB_PATTERNS.length).toBeLessThanOrEqual(25);
    for (const row of VERB_PATTERNS) expect(isRelationType(row.type)).toBe(true);
    expect(PHRASES.size).toBe(rows.length);
  });

  it.each(rows)("\"X $phrase Y\" gives $type (inverse: $inverse)", ({ type, phrase, inverse }) => {
    const text = `Northwind Depot ${phrase} Harbor Group.`;
    const expected = inverse ? ["Harbor Group", type, "Northwind Depot"] : ["Northwind Depot", type, "Harbor Group"];
    expect(triples(text)).toEqual([expected]);
    // Same phrase with an adverb, a determiner, and mid-paragraph.
    const adv = `Some context first. Northwind Depot ${ADVERBS[0]} ${phrase} the Harbor Group. More text follows.`;
    if (!phrase.endsWith(" a") && !phrase.endsWith(" an")) expect(triples(adv)).toEqual([expected]);
  });
});

describe("extractRelations", () => {
  it("returns spans that cover subject to object in the original text", () => {
    const text = "Intro line.\nLedger depends on `postgres-main` today.";
    const [r] = extractRelations(text);
    expect(r).toMatchObject({ from: "Ledger", type: "depends_on", to: "postgres-main" });
    expect(text.slice(r.span[0], r.span[1])).toBe("Ledger depends on `postgres-main`");
  });

  it("spreads a relation over lists of objects and subjects", () => {
    expect(triples("Ledger depends on Postgres and Redis.")).toEqual([
      ["Ledger", "depends_on", "Postgres"], ["Ledger", "depends_on", "Redis"],
    ]);
    expect(triples("Ledger depends on Postgres, Redis, and Kafka.")).toHaveLength(3);
    expect(triples("Priya and Omar built Ledger.")).toEqual([["Priya", "created", "Ledger"], ["Omar", "created", "Ledger"]]);
    expect(triples("Vault uses Consul as well as Raft.")).toEqual([["Vault", "uses", "Consul"], ["Vault", "uses", "Raft"]]);
  });

  it("starts a new clause at the last list member before a second verb", () => {
    expect(triples("Priya built Ledger and Omar maintains Vault.")).toEqual([
      ["Priya", "created", "Ledger"], ["Omar", "maintains", "Vault"],
    ]);
    expect(triples("Ledger uses Redis and Kafka uses Zookeeper")).toEqual([["Ledger", "uses", "Redis"], ["Kafka", "uses", "Zookeeper"]]);
  });

  it("handles determiners, emphasis, soft wraps, backticks and leading function words", () => {
    expect(triples("The Payments Team owns `ledger-api`.")).toEqual([["Payments Team", "owns", "ledger-api"]]);
    expect(triples("**Ledger** uses **Redis**.")).toEqual([["Ledger", "uses", "Redis"]]);
    expect(triples("Yesterday Ledger depends\non Postgres.")).toEqual([["Ledger", "depends_on", "Postgres"]]);
    expect(triples("Nadia Okafor founded Acme Robotics.")).toEqual([["Acme Robotics", "founded_by", "Nadia Okafor"]]);
    expect(triples("Priya Raman is a Staff Engineer.")).toEqual([["Priya Raman", "is_a", "Staff Engineer"]]);
  });

  it("lets numbers continue a name but never start one", () => {
    expect(triples("Incident 0412 was caused by Drift.")).toEqual([["Drift", "caused", "Incident 0412"]]);
    expect(triples("In 2023 Priya built Ledger.")).toEqual([["Priya", "created", "Ledger"]]);
    expect(triples("Ledger depends on Postgres 15.")).toEqual([["Ledger", "depends_on", "Postgres 15"]]);
  });

  it.each([
    "The quick brown fox jumps over the lazy dog.",
    "Ledger does not use Redis.",
    "Ledger no longer depends on Redis.",
    "Priya said Ledger was fine.",
    "Ledger is a Go service.",
    "After Priya left, Omar joined the team.",
    "Is Ledger part of Payments?",
    "Priya's team uses Redis.",
    "# Ledger\nuses Redis",
    "Ledger\n\nuses Redis",
    "- Ledger\n- uses Redis",
    "```\nLedger uses Redis\n```",
    "See https://Ledger.example/Uses for details on Redis.",
    "Ledger uses [[x::Redis]]",
    "Ledger uses Ledger.",
    "We use Redis. Ledger is great. Payments owns nothing.",
  ])("finds no edge in %j", (text) => {
    expect(extractRelations(text)).toEqual([]);
  });

  it("does not extend a relation over a comma that ends the clause", () => {
    expect(triples("Ledger uses Redis, Priya said.")).toEqual([["Ledger", "uses", "Redis"]]);
    expect(triples("Ledger uses Redis, Kafka, Postgres.")).toEqual([["Ledger", "uses", "Redis"]]);
  });

  it("keeps the first of repeated triples and is deterministic", () => {
    const text = "Ledger uses Redis. Later, Ledger uses Redis again. Omar manages Ledger.";
    const a = extractRelations(text);
    expect(a.map((r) => r.type)).toEqual(["uses", "manages"]);
    expect(a[0].span[0]).toBe(0);
    expect(extractRelations(text)).toEqual(a);
  });
});

describe("findMentions", () => {
  it("finds capitalised phrases and backticked identifiers, cleaned to the charset", () => {
    const ms = findMentions("On Monday the API Gateway team moved `ledger.v2` off Node.js for Priya's group");
    expect(ms.map((m) => m.name)).toEqual(["API Gateway", "ledgerv2", "Nodejs", "Priya"]);
  });

  it("ignores a backtick that is not closed on its line", () => {
    expect(findMentions("`open\nLedger and `shut` here").map((m) => m.name)).toEqual(["Ledger", "shut"]);
  });

  it("reads a plain wikilink as a mention of its target, so wikilinked prose relates like plain text", () => {
    expect(findMentions("See [[Granite|the db]] and [[Storage Team#Rota]]").map((m) => m.name)).toEqual(["Granite", "Storage Team"]);
    expect(triples("Ledger depends on [[Granite]].")).toEqual([["Ledger", "depends_on", "Granite"]]);
    expect(triples("[[Priya Raman|Priya]] built [[ledger-api]] and Vault.")).toEqual([["Priya Raman", "created", "ledger-api"], ["Priya Raman", "created", "Vault"]]);
    // Embeds, inline code and fenced code are not prose; annotations stay annotations.
    expect(triples("Ledger depends on ![[Granite]].")).toEqual([]);
    expect(triples("Ledger depends on `[[Granite]]`.")).toEqual([]);
    expect(triples("```\nLedger depends on [[Granite]].\n```")).toEqual([]);
    expect(triples("Ledger depends on [[uses::Granite]].")).toEqual([]);
  });

  it("yields nothing inside fenced code, annotations or URLs", () => {
    expect(findMentions("```ts\nconst Foo = Bar;\n```\n[[uses::Redis]] https://Example.com/Path")).toEqual([]);
  });
});
