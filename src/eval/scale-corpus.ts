/**
 * Deterministic corpus scaling for load tests: grows a real corpus (e.g.
 * SciFact's 5,183 abstracts) to n documents. The originals come first,
 * unchanged; each further copy of a source document has its sentences
 * shuffled and about one word in six swapped for a word from another
 * document, so term statistics stay realistic (Zipfian, similar lengths)
 * without duplicate documents. Same input and seed, same output.
 */

/** A source document. */
export interface ScaleSource {
  title: string;
  text: string;
}

/** A generated document with a sequential numeric id (1-based). */
export interface ScaledDoc {
  id: number;
  title: string;
  content: string;
}

/** Small seeded PRNG (mulberry32) returning floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Builds `n` documents from `sources` (n may be below, equal to or above the source count). */
export function scaleCorpus(sources: readonly ScaleSource[], n: number, seed = 42): ScaledDoc[] {
  const rand = seededRandom(seed);
  const out: ScaledDoc[] = [];
  if (sources.length === 0) return out;
  for (let i = 0; i < n; i++) {
    const src = sources[i % sources.length];
    if (i < sources.length) {
      out.push({ id: i + 1, title: src.title, content: src.text });
      continue;
    }
    const donor = sources[Math.floor(rand() * sources.length)];
    out.push({ id: i + 1, title: perturb(src.title, donor.title, rand), content: perturbText(src.text, donor.text, rand) });
  }
  return out;
}

function perturbText(text: string, donor: string, rand: () => number): string {
  const sentences = text.split(/(?<=[.!?])\s+/);
  for (let i = sentences.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [sentences[i], sentences[j]] = [sentences[j], sentences[i]];
  }
  return perturb(sentences.join(" "), donor, rand);
}

function perturb(text: string, donor: string, rand: () => number): string {
  const donorWords = donor.split(/\s+/).filter(Boolean);
  if (donorWords.length === 0) return text;
  return text
    .split(/\s+/)
    .map((w) => (rand() < 1 / 6 ? donorWords[Math.floor(rand() * donorWords.length)] : w))
    .join(" ");
}
