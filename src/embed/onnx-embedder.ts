/**
 * The opt-in ONNX sentence embedder: a transformers.js `feature-extraction`
 * pipeline over a local model directory (onnxruntime-node on CPU), mean
 * pooled over the attention mask and L2-normalised, like
 * sentence-transformers. Node-only: the composition root reaches it through
 * dynamic `import()` when `CAIRN_EMBED_KIND=onnx`, never statically.
 */
import type { Embedder } from "./embedder.ts";
import { importTransformers, inspectOnnxDir, loadFailure, pretrainedOptions, type OnnxBackend } from "./onnx-files.ts";

/** An Embedder backed by ONNX Runtime; `backend` tells which runtime build runs it (for logs and /health). */
export interface OnnxEmbedder extends Embedder {
  readonly backend: "node" | "wasm";
}

/** Options for `loadOnnxEmbedder`. */
export interface OnnxEmbedderOptions {
  /** Weight variant to use (`fp32`, `q8`, `int8`, `uint8`, `fp16`, `q4`); default: the first present in that order. */
  dtype?: string;
  /** Texts per ONNX run; bounds padding memory. Default 16. */
  batchSize?: number;
  /** ONNX Runtime build: `auto` (native, wasm if the addon cannot load; default), `node` or `wasm`. Fixed per process. */
  backend?: OnnxBackend;
}

const WHAT = "ONNX embedding model";

/** Loads a transformers.js-format ONNX embedding model from `dir`; throws `embed_model_invalid` when it cannot. */
export async function loadOnnxEmbedder(dir: string, options: OnnxEmbedderOptions = {}): Promise<OnnxEmbedder> {
  const m = await inspectOnnxDir(dir, WHAT, options.dtype);
  const { t, backend } = await importTransformers(m.dir, options.backend);
  let extractor: Awaited<ReturnType<typeof t.pipeline<"feature-extraction">>>;
  try {
    extractor = await t.pipeline("feature-extraction", m.dir, pretrainedOptions(m, backend));
  } catch (e) {
    throw loadFailure(WHAT, m, e);
  }
  const batchSize = Math.max(1, options.batchSize ?? 16);
  // One run at a time: ONNX Runtime already uses every core for one batch.
  let queue: Promise<unknown> = Promise.resolve();

  const runBatch = async (texts: string[]): Promise<Float32Array[]> => {
    const out = await extractor(texts, { pooling: "mean", normalize: true });
    const [rows, dim] = out.dims as [number, number];
    const data = out.data as Float32Array;
    return Array.from({ length: rows }, (_, i) => data.slice(i * dim, (i + 1) * dim));
  };
  const embed = (texts: string[]): Promise<Float32Array[]> => {
    const job = queue.then(async () => {
      const vectors: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += batchSize) vectors.push(...(await runBatch(texts.slice(i, i + batchSize))));
      return vectors;
    });
    queue = job.catch(() => undefined);
    return job;
  };

  // Probe once: proves the graph runs here and gives the real output width.
  let probe: Float32Array[];
  try {
    probe = await embed(["probe"]);
  } catch (e) {
    throw loadFailure(WHAT, m, e);
  }
  return { id: `onnx:${m.name}@${m.idHash}`, dim: probe[0]!.length, tableHash: m.modelHash, backend, embed };
}
