/**
 * The opt-in ONNX cross-encoder for the rerank tier (SPEC §3 step 5: an
 * optional tier over the top 50 that fails open). Loads a local
 * transformers.js sequence-classification model (e.g. an ms-marco MiniLM or
 * bge-reranker export), tokenizes each (query, document) pair with the
 * model's pair template and returns one relevance score per document: the
 * raw logit for single-logit models, logit[1] − logit[0] (log-odds of the
 * "relevant" label) for two-label ones. Node-only: reached through dynamic
 * `import()` only when a rerank model dir is configured.
 */
import { importTransformers, inspectOnnxDir, loadFailure, pretrainedOptions, type OnnxBackend } from "../embed/onnx-files.ts";

/** A loaded cross-encoder. */
export interface CrossEncoder {
  /** Stable identifier, `onnx-rerank:<dir name>@<hash>`. */
  readonly id: string;
  /** One score per document, higher = more relevant; same order as `docs`. */
  score(query: string, docs: string[]): Promise<number[]>;
  /** Which ONNX Runtime build runs it. */
  readonly backend: "node" | "wasm";
}

/** Options for `loadOnnxCrossEncoder`. */
export interface OnnxCrossEncoderOptions {
  /** Weight variant (`fp32`, `q8`, ...); default: the first present. */
  dtype?: string;
  /** Pairs per ONNX run. Default 16. */
  batchSize?: number;
  /** ONNX Runtime build: `auto` (native, wasm if the addon cannot load; default), `node` or `wasm`. Fixed per process. */
  backend?: OnnxBackend;
  /** Token cap per pair (truncation); default the tokenizer's model_max_length, at most 512. */
  maxLength?: number;
}

const WHAT = "ONNX cross-encoder model";

/** Loads a sequence-classification ONNX model from `dir`; throws `embed_model_invalid` when it cannot. */
export async function loadOnnxCrossEncoder(dir: string, options: OnnxCrossEncoderOptions = {}): Promise<CrossEncoder> {
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

  const runBatch = async (query: string, docs: string[]): Promise<number[]> => {
    const inputs = tokenizer(new Array<string>(docs.length).fill(query), { text_pair: docs, padding: true, truncation: true, max_length: maxLength });
    const { logits } = await model(inputs);
    const [rows, labels] = logits.dims as [number, number];
    const data = logits.data as Float32Array;
    return Array.from({ length: rows }, (_, i) => (labels >= 2 ? data[i * labels + 1]! - data[i * labels]! : data[i * labels]!));
  };
  const score = (query: string, docs: string[]): Promise<number[]> => {
    const job = queue.then(async () => {
      const out: number[] = [];
      for (let i = 0; i < docs.length; i += batchSize) out.push(...(await runBatch(query, docs.slice(i, i + batchSize))));
      return out;
    });
    queue = job.catch(() => undefined);
    return job;
  };

  try {
    await score("probe", ["probe"]);
  } catch (e) {
    throw loadFailure(WHAT, m, e);
  }
  return { id: `onnx-rerank:${m.name}@${m.idHash}`, backend, score };
}
