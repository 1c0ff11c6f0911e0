/**
 * The per-document text work of a write (issue 25): the rules screen (SPEC §1 Trust rules) and the embedding
 * (SPEC §1 step 1) of every chunk of a batch. With a worker pool (`ctx.textWork`) a share of the batch is posted
 * to the workers first and the rest is computed here meanwhile, so a batch uses more than one core. Both are pure
 * functions of the text and the workers run the same code over the same table (the pool is used only when its
 * embedder id, which carries the table's hash, is this context's), so the verdicts and vectors are the same
 * whichever thread computed them. A pool failure falls back to computing its share here.
 */
import { screen, screenPaced, type ScreenResult } from "../hygiene/screen.ts";
import type { WriteContext } from "./context.ts";
import type { TextJob } from "./ports.ts";

/** The rules verdicts (in input order) and, when the context embeds, the vectors. */
export interface TextWorkResult {
  rules: ScreenResult[];
  vectors: Float32Array[] | undefined;
}

/** The text the screen reads for a chunk: title and content. */
export const screenedText = (c: { title?: string; content: string }): string => (c.title ? `${c.title}\n${c.content}` : c.content);

/** The text embedded for a chunk: title and content. */
export function embedText(c: { title?: string; content: string }): string {
  return c.title ? `${c.title}\n${c.content}` : c.content;
}

/** Texts longer than this (chars) are screened a pass at a time under a deadline. */
const PACED_SCREEN = 32_768;

/**
 * The rules verdicts of texts. Under a request deadline (SPEC §8) each text, and each pass over a long one, is a
 * slice boundary: the work yields to the event loop when its slice is used up and stops once the deadline passed.
 */
async function screenAll(texts: readonly string[], pace: (() => Promise<void>) | undefined): Promise<ScreenResult[]> {
  if (pace === undefined) return texts.map(screen);
  const out: ScreenResult[] = [];
  for (const t of texts) {
    out.push(t.length > PACED_SCREEN ? await screenPaced(t, pace) : screen(t));
    await pace();
  }
  return out;
}

/** Screens (rules only) and embeds a batch's chunks, a share on the worker pool when there is one. */
export async function screenAndEmbed(ctx: WriteContext, items: ReadonlyArray<{ title?: string; content: string }>): Promise<TextWorkResult> {
  const embedder = ctx.embedder;
  const pool = ctx.textWork;
  const deadline = ctx.work?.current();
  const pace = deadline && (() => deadline.pace());
  const off = pool !== undefined && embedder !== undefined && pool.embedderId === embedder.id ? Math.min(pool.offThread(items.length), items.length) : 0;
  const local = (from: number, to: number) => items.slice(from, to);
  if (off === 0) {
    const all = local(0, items.length);
    const rules = await screenAll(all.map(screenedText), pace);
    return { rules, vectors: embedder && all.length ? await embedder.embed(all.map(embedText), { pace }) : undefined };
  }
  const k = items.length - off;
  const jobs: TextJob[] = local(k, items.length).map((c) => ({ screen: screenedText(c), embed: embedText(c) }));
  // Posted before the in-thread share starts, so both run at once.
  const remote = pool!.run(jobs).catch(() => undefined);
  const head = local(0, k);
  const rules = await screenAll(head.map(screenedText), pace);
  const vectors = k > 0 ? await embedder!.embed(head.map(embedText), { pace }) : [];
  const tail = await remote;
  deadline?.check();
  if (tail === undefined || tail.length !== jobs.length) {
    // The pool failed: its share is computed here (same functions, same results).
    rules.push(...(await screenAll(jobs.map((j) => j.screen), pace)));
    vectors.push(...(await embedder!.embed(jobs.map((j) => j.embed), { pace })));
  } else {
    for (const r of tail) {
      rules.push(r.screen);
      vectors.push(r.vector);
    }
  }
  return { rules, vectors };
}
