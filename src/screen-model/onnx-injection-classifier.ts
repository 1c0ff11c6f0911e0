/**
 * The optional local injection classifier (SPEC §1 Trust rules; issue 26):
 * a transformers.js-format ONNX sequence-classification model read from
 * `CAIRN_INJECTION_CLASSIFIER_DIR`, run on CPU by onnxruntime-node (an
 * optional peer dependency). It gives the probability that a text is an
 * injection. Node-only and heavy: the runtime loader reaches it through a
 * dynamic `import()` only when the directory is configured; nothing is ever
 * downloaded (the same offline pattern as the ONNX embedder).
 */
import { importTransformers, inspectOnnxDir, loadFailure, pretrainedOptions, type OnnxBackend } from "../embed/onnx-files.ts";
import type { InjectionClassifier } from "./classifier.ts";

/** Options for `loadOnnxInjectionClassifier`. */
export interface OnnxInjectionClassifierOptions {
  /** Weight variant (`fp32`, `q8`, ...); default: the first present. */
  dtype?: string;
  /** Texts per ONNX run. Default 16. */
  batchSize?: number;
  /** ONNX Runtime build; default `auto`. */
  backend?: OnnxBackend;
  /** Token cap per text; default the tokenizer's model_max_length, at most 512. */
  maxLength?: number;
}

const WHAT = "ONNX injection classifier";
// Label names that mean "this is an injection" in published prompt-injection classifiers.
const INJECTION_LABEL = /inject|jailbreak|attack|malicious|unsafe/i;

/** The output index that means "injection": a label named so in config.json's id2label, else 1 (else 0 for one logit). */
export function injectionIndex(config: Record<string, unknown>, labels: number): number {
  const id2label = config.id2label;
  if (id2label && typeof id2label === "object") {
    for (const [k, v] of Object.entries(id2label as Record<string, unknown>)) {
      if (typeof v === "string" && INJECTION_LABEL.test(v) && Number(k) < labels) return Number(k);
    }
  }
  return labels >= 2 ? 1 : 0;
}

/** Probability of `index` from one row of logits: softmax for two or more labels, sigmoid for one. */
export function probability(row: ArrayLike<number>, index: number): number {
  if (row.length === 1) return 1 / (1 + Math.exp(-row[0]!));
  let max = -Infinity;
  for (let i = 0; i < row.length; i++) max = Math.max(max, row[i]!);
  let sum = 0;
  for (let i = 0; i < row.length; i++) sum += Math.exp(row[i]! - max);
  return Math.exp(row[index]! - max) / sum;
}

/** Loads the classifier from `dir`; throws `embed_model_invalid` (boot refuses) when it cannot. */
export async function loadOnnxInjectionClassifier(dir: string, options: OnnxInjectionClassifierOptions = {}): Promise<InjectionClassifier> {
  const m = await inspectOnnxDir(dir, WHAT, options.dtype);
  const { t, backend } = await importTransformers(m.dir, options.backend);
  let tokenizer: Awaited<ReturnType<typeof t.AutoTokenizer.from_pretrained>>;
  let model: Awaited<ReturnType<typeof t.AutoModelForSequenceClassification.from_pretrained>>;
  try {
    tokenizer = await t.AutoTokenizer.from_pretrained(m.dir, { local_files_only: true });
    model = await t.AutoModelForSequenceClassification.from_pretrained(m.dir, pretrainedOptions(m, backend));
  } catch (e) {
    throw loadFailure(WHAT, m, e);
  }
  const batchSize = Math.max(1, options.batchSize ?? 16);
  const maxLength = options.maxLength ?? Math.min(512, Number(tokenizer.model_max_length) || 512);
  let queue: Promise<unknown> = Promise.resolve();

  const runBatch = async (texts: string[]): Promise<number[]> => {
    const inputs = tokenizer(texts, { padding: true, truncation: true, max_length: maxLength });
    const { logits } = await model(inputs);
    const [rows, labels] = logits.dims as [number, number];
    const data = logits.data as Float32Array;
    const at = injectionIndex(m.config, labels);
    return Array.from({ length: rows }, (_, i) => probability(data.subarray(i * labels, (i + 1) * labels), at));
  };
  const score = (texts: string[]): Promise<number[]> => {
    const job = queue.then(async () => {
      const out: number[] = [];
      for (let i = 0; i < texts.length; i += batchSize) out.push(...(await runBatch(texts.slice(i, i + batchSize))));
      return out;
    });
    queue = job.catch(() => undefined);
    return job;
  };

  // Probe once: proves the graph runs here and yields a probability.
  try {
    const [p] = await score(["probe"]);
    if (!Number.isFinite(p)) throw new Error("the model's output is not a number");
  } catch (e) {
    throw loadFailure(WHAT, m, e);
  }
  return { id: `onnx-injection:${m.name}@${m.idHash}`, backend, score };
}
