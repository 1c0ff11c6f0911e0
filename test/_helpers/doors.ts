/**
 * STYLE 18, issue 36: what boot rebuilds must equal what live writes built. This helper fills a store through every
 * write door a user has (memory, markdown, conversation, ingest, batch ingest, UMP remember, proposal + approve,
 * structured with entities and relations), then reads the answers of a fixed query set — every field of every hit
 * (ids, order, scores, labels, provenance) — so a test or `scripts/restart-check.ts` can compare them before and
 * after a restart, a node-cache boot, or in multi-database mode. Only timings are left out.
 */

/** JSON over HTTP (real sockets or `app.request`). */
export type Json = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

/** One conversation session for `POST /ingest/conversation`. */
export interface DoorConversation {
  session: { id: string; date?: string };
  turns: { speaker: string; text: string }[];
}

/** What each door receives. */
export interface DoorMaterial {
  /** `POST /domains` first (multi-database mode puts each in its own file). */
  domains?: string[];
  memories?: { content: string; domain?: string }[];
  markdown?: { title: string; content: string; domain?: string }[];
  conversations?: DoorConversation[];
  ingest?: { title: string; content: string; domain?: string }[];
  batch?: { title: string; content: string }[];
  ump?: string[];
  proposals?: { title?: string; content: string }[];
  structured?: { title: string; content: string; entities: { name: string; type?: string }[]; relations: { from: string; to: string; type: string }[] }[];
  /** Churn after the writes: the first UMP record revised to this text, and the first `ingest` entry deleted. */
  churn?: { revise: string };
}

const ok = (path: string, r: { status: number; body: any }) => {
  if (r.status < 200 || r.status > 299) throw new Error(`${path} → ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
  return r.body;
};

/** Writes the material through its doors, in a fixed order; returns the number of writes made. */
export async function fillThroughDoors(json: Json, m: DoorMaterial): Promise<number> {
  let n = 0;
  for (const name of m.domains ?? []) ok("/domains", await json("POST", "/domains", { name })), n++;
  for (let i = 0; i < (m.memories ?? []).length; i += 200) {
    ok("/ingest/memory", await json("POST", "/ingest/memory", { entries: m.memories!.slice(i, i + 200) })), n++;
  }
  for (const d of m.markdown ?? []) ok("/ingest/markdown", await json("POST", "/ingest/markdown", d)), n++;
  for (const c of m.conversations ?? []) ok("/ingest/conversation", await json("POST", "/ingest/conversation", c)), n++;
  for (const d of m.ingest ?? []) ok("/ingest", await json("POST", "/ingest", d)), n++;
  for (let i = 0; i < (m.batch ?? []).length; i += 250) ok("/ingest/batch", await json("POST", "/ingest/batch", { items: m.batch!.slice(i, i + 250) })), n++;
  for (const text of m.ump ?? []) ok("/ump/remember", await json("POST", "/ump/remember", { ump: "1.0", kind: "semantic", body: { text } })), n++;
  for (const p of m.proposals ?? []) {
    const filed = ok("/ingest/proposal", await json("POST", "/ingest/proposal", p));
    const view = ok("/proposals/{id}", await json("GET", `/proposals/${filed.id}`));
    ok("approve", await json("POST", `/proposals/${filed.id}/approve?digest=${view.content_digest}`)), n++;
  }
  for (const s of m.structured ?? []) ok("/ingest", await json("POST", "/ingest", s)), n++;
  if (m.churn) {
    const first = ok("/ump/remember", await json("POST", "/ump/remember", { ump: "1.0", kind: "semantic", body: { text: m.ump![0] } }));
    ok("/ump/revise", await json("POST", "/ump/revise", { id: first.id, patch: { body: { text: m.churn.revise } } })), n++;
    const gone = ok("/ingest", await json("POST", "/ingest", m.ingest![0]));
    ok("DELETE /memory", await json("DELETE", `/memory/${gone.id}`)), n++;
  }
  return n;
}

/** Drops what may differ between two runs of the same store: timings. */
function stable(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stable);
  if (v === null || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) {
    if (k.endsWith("_ms") || k.startsWith("retrieval_ms")) continue;
    out[k] = stable(x);
  }
  return out;
}

/** Every answer of a query set: `/recall` with provenance and telemetry (graph on), the same without the graph leg, and `/ump/recall`. */
export async function answersOf(json: Json, queries: readonly string[], limit = 10): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const query of queries) {
    out[`recall ${query}`] = stable(ok("/recall", await json("POST", "/recall", { query, limit, provenance: true })));
    out[`recall graph=false ${query}`] = stable(ok("/recall", await json("POST", "/recall", { query, limit, graph: false, provenance: true })));
    const ump = ok("/ump/recall", await json("POST", "/ump/recall", { ump: "1.0", query, limit: 5 }));
    // A UMP result's recency signal follows the wall clock; the record, its rank and its similarity must not move.
    out[`ump ${query}`] = (ump.results as { record: unknown; signals: { similarity: number } }[]).map((r) => ({ record: r.record, similarity: r.signals.similarity }));
  }
  return out;
}

/** The differences between two answer sets, one line each (empty when identical). */
export function diffAnswers(before: Record<string, unknown>, after: Record<string, unknown>, max = 20): string[] {
  const lines: string[] = [];
  const walk = (a: unknown, b: unknown, path: string) => {
    if (lines.length >= max) return;
    if (a === b) return;
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) {
      lines.push(`${path}: ${JSON.stringify(a)?.slice(0, 120)} → ${JSON.stringify(b)?.slice(0, 120)}`);
      return;
    }
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) walk((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
  };
  for (const k of new Set([...Object.keys(before), ...Object.keys(after)])) walk(before[k], after[k], JSON.stringify(k));
  return lines;
}

/** A garden chat between Alice (turns 0, 2, 4) and Bob (turns 1, 3): the first conversation of `SMALL_DOORS`. */
export const GARDEN_SESSION: DoorConversation = {
  session: { id: "s1", date: "2024-04-02" },
  turns: [
    { speaker: "Alice", text: "I planted tomatoes and basil in the garden this spring." },
    { speaker: "Bob", text: "My garden is full of weeds, I never find time for it." },
    { speaker: "Alice", text: "The garden needs watering every evening when it is this hot." },
    { speaker: "Bob", text: "I should pull the weeds from my garden on Saturday." },
    { speaker: "Alice", text: "Come over and I will show you the new raised beds." },
  ],
};

/** A small store with something for every door (original text written for this check). */
export const SMALL_DOORS: DoorMaterial = {
  domains: ["garden", "kitchen"],
  memories: [
    { content: "The spare house key is under the blue flower pot by the back door." },
    { content: "Dentist appointment moved to Thursday at 3 pm." },
    { content: "Tomato seedlings go into the greenhouse once nights stay above ten degrees.", domain: "garden" },
    { content: "The sourdough starter needs feeding every twelve hours at room temperature.", domain: "kitchen" },
    { content: "Wi-Fi password for the guest network is on the fridge magnet." },
  ],
  markdown: [
    {
      title: "Compost guide",
      domain: "garden",
      content: "# Compost guide\n\n## Greens\n\nGrass clippings and vegetable peelings add nitrogen.\n\n## Browns\n\nDry leaves and cardboard add carbon. Shred the cardboard first.\n\n## Turning\n\nTurn the heap every two weeks so it stays aerobic; [[part_of::Garden Plan]].\n",
    },
    {
      // Over 2,000 characters: split at its headings into sibling chunks (`meta.document`, the per-document cap).
      title: "Studio handbook",
      content: "# Studio handbook\n\n" + ["Kiln", "Clay", "Wheels", "Shelves", "Cleaning", "Tools", "Members", "Safety"].map((h) =>
        `## ${h}\n\nThe ${h.toLowerCase()} rules of the shared pottery studio, agreed at the members meeting last spring: ask the technician, ` +
        `keep the ${h.toLowerCase()} area tidy and safe for the next member, and write any problem with the ${h.toLowerCase()} into the studio log before you leave.\n`).join("\n"),
    },
    {
      title: "Bread notes",
      domain: "kitchen",
      content: "---\ntags: [baking]\naliases: [Loaf Notes]\n---\n# Bread notes\n\n## Hydration\n\nA 75 percent hydration dough gives an open crumb.\n\n## Baking\n\nBake at 250 degrees with steam for the first twenty minutes.\n",
    },
  ],
  conversations: [
    GARDEN_SESSION,
    {
      session: { id: "s2", date: "2024-04-09" },
      turns: [
        { speaker: "Bob", text: "I pulled every weed yesterday, it took four hours." },
        { speaker: "Alice", text: "Well done! My basil already needs pinching back." },
      ],
    },
  ],
  ingest: [
    { title: "Boiler service", content: "The boiler was serviced in March; the engineer replaced the pressure valve." },
    { title: "Car insurance", content: "Car insurance renews on the first of September with the same provider.", domain: "kitchen" },
  ],
  batch: [
    { title: "Bike", content: "The bike chain was oiled and the rear brake pads replaced." },
    { title: "Passport", content: "Passport expires in 2031; renewal takes about six weeks." },
  ],
  ump: ["Prefers tea without sugar in the morning.", "The cat is called Miso and is afraid of the vacuum cleaner."],
  churn: { revise: "Prefers green tea with honey in the morning." },
  proposals: [{ title: "Recycling day", content: "Recycling is collected every second Wednesday morning." }],
  structured: [
    {
      title: "Garden plan",
      content: "The garden plan puts the raised beds on the south side and the compost heap behind the shed.",
      entities: [{ name: "Garden Plan", type: "plan" }, { name: "Raised Beds" }, { name: "Compost Heap" }],
      relations: [{ from: "Garden Plan", to: "Raised Beds", type: "includes" }, { from: "Garden Plan", to: "Compost Heap", type: "includes" }],
    },
  ],
};

/** Questions over `SMALL_DOORS`, one or more per door, plus off-topic and nonsense ones (abstention must not change either). */
export const SMALL_QUERIES = [
  "What did Alice say about the garden?",
  "What did Bob do about the weeds?",
  "Where is the spare key?",
  "When is the dentist appointment?",
  "How often should the compost heap be turned?",
  "What oven temperature for bread?",
  "sourdough starter feeding",
  "When was the boiler serviced?",
  "car insurance renewal",
  "bike brakes",
  "passport renewal time",
  "How does she take her tea?",
  "What is the cat afraid of?",
  "Which day is recycling collected?",
  "What does the garden plan include?",
  "raised beds",
  "What are the studio rules for the kiln and the wheels?",
  "quantum chromodynamics lattice gauge",
  "xqzv plorb wug",
];
