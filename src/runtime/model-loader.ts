/**
 * Loads the configured embedder and optional cross-encoder from disk
 * (runtime code: it reads files). The default static table ships in
 * `assets/embed/`; model2vec and ONNX directories are opt-in
 * (`CAIRN_EMBED_KIND`, `CAIRN_EMBED_MODEL_DIR`, `CAIRN_RERANK_MODEL_DIR`).
 * The optional injection classifier (`CAIRN_INJECTION_CLASSIFIER_DIR`) loads the same way.
 * A missing or broken model refuses boot with a clear message; no network.
 */
import type { Config } from "../config/config.ts";
import { MemoryError } from "../core/errors.ts";
import type { Embedder } from "../embed/embedder.ts";
import { loadModel2VecDir } from "../embed/model2vec-dir.ts";
import { createStaticEmbedder, DEFAULT_STATIC_ASSET_PATH } from "../embed/static-embedder.ts";
import type { CrossEncoder } from "../rerank/onnx-cross-encoder.ts";
import type { InjectionClassifier } from "../screen-model/classifier.ts";
import { packageRoot, readBytes } from "./platform.ts";
import { createTextPool, ingestWorkerCount, type TextPool } from "./text-pool.ts";

/** Loads the embedder named by the config (undefined for `none`). */
export async function loadEmbedder(config: Config): Promise<Embedder | undefined> {
  if (config.embedKind === "none") return undefined;
  if (config.embedKind === "static") {
    let bytes: Uint8Array;
    try {
      bytes = await readBytes(`${packageRoot()}/${DEFAULT_STATIC_ASSET_PATH}`);
    } catch {
      throw new MemoryError("embed_model_invalid", `the static embedding table ${DEFAULT_STATIC_ASSET_PATH} is missing; reinstall Cairn or set CAIRN_EMBED_KIND`);
    }
    // Web Crypto's native SHA-256 (Node and Deno): ~10× the pure-JS hash on the 15 MB table at every boot.
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
    // The fresh read is handed over: the table's vectors are read in place.
    return createStaticEmbedder(bytes, Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join(""), true);
  }
  const dir = config.embedModelDir!.replace(/\/$/, "");
  if (config.embedKind === "model2vec") {
    return await loadModel2VecDir(async (rel) => {
      try {
        return await readBytes(`${dir}/${rel}`);
      } catch {
        return undefined;
      }
    });
  }
  // ONNX is node-only and heavy: load it only when asked for.
  const { loadOnnxEmbedder } = await import("../embed/onnx-embedder.ts");
  return await loadOnnxEmbedder(dir);
}

/**
 * Starts the ingest text pool (issue 25) for the default static embedder: its workers load the same table file.
 * Undefined for another embedder, under Deno, or with `CAIRN_INGEST_WORKERS=0`. No thread starts at boot: the
 * first batch worth sharing starts the workers, and the write path runs in-thread until they are ready.
 */
export async function loadTextPool(config: Config, embedder: Embedder | undefined): Promise<TextPool | undefined> {
  if (config.embedKind !== "static" || embedder === undefined) return undefined;
  const workers = await ingestWorkerCount(config.ingestWorkers);
  return await createTextPool({ workers, tablePath: `${packageRoot()}/${DEFAULT_STATIC_ASSET_PATH}`, embedderId: embedder.id });
}

/**
 * Loads the optional ONNX cross-encoder for the rerank tier. SPEC §1 step 5: the tier fails open, so a missing or
 * broken model is a warning (the built-in reranker runs alone), never a refused boot.
 */
export async function loadCrossEncoder(config: Config): Promise<{ crossEncoder?: CrossEncoder; warning?: string }> {
  if (!config.rerankModelDir) return {};
  try {
    const { loadOnnxCrossEncoder } = await import("../rerank/onnx-cross-encoder.ts");
    return { crossEncoder: await loadOnnxCrossEncoder(config.rerankModelDir) };
  } catch (e) {
    const why = e instanceof MemoryError ? e.message : "the model could not be loaded";
    return { warning: `CAIRN_RERANK_MODEL_DIR: ${why}; reranking with the built-in reranker only` };
  }
}

/** Loads the optional ONNX injection classifier (SPEC §1 Trust rules); a missing or broken model refuses boot. */
export async function loadInjectionClassifier(config: Config): Promise<InjectionClassifier | undefined> {
  if (!config.injectionClassifierDir) return undefined;
  const { loadOnnxInjectionClassifier } = await import("../screen-model/onnx-injection-classifier.ts");
  try {
    return await loadOnnxInjectionClassifier(config.injectionClassifierDir);
  } catch (e) {
    if (e instanceof MemoryError) throw new MemoryError(e.code, `CAIRN_INJECTION_CLASSIFIER_DIR: ${e.message}`, e.details);
    throw e;
  }
}
