/** Seeded prose for load tests and benches: varied made-up words, so the screen, the embedder and the index all work. */

/** `bytes` characters of prose from a seeded word generator (the same seed gives the same text). */
export function prose(bytes: number, seed = 1): string {
  const syl = ["ka", "lo", "mi", "ten", "ra", "sul", "ve", "dor", "an", "pi", "qua", "ner", "ost", "bel", "fi", "gro"];
  let s = seed >>> 0;
  const next = () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
  const parts: string[] = [];
  let n = 0;
  while (n < bytes) {
    const w = Array.from({ length: 2 + Math.floor(next() * 3) }, () => syl[Math.floor(next() * syl.length)]).join("");
    const piece = next() < 0.08 ? `${w}.\n` : `${w} `;
    parts.push(piece);
    n += piece.length;
  }
  return parts.join("").slice(0, bytes);
}
