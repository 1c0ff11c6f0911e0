/**
 * The embedding port (SPEC §1: local static embeddings; no language model in
 * the retrieval path). Every embedder — the default static GloVe table, the
 * optional model2vec / ONNX ones — implements this one interface, so recall
 * and ingest depend only on it. Vectors are L2-normalised, so a dot product is
 * a cosine similarity.
 */

/** Turns texts into L2-normalised vectors of a fixed dimension, deterministically. */
export interface Embedder {
  /** Stable identifier of model and table, e.g. `cairn-static-glove-100d@1a2b3c4d`; stored beside vectors. */
  readonly id: string;
  /** Length of every vector `embed` returns. */
  readonly dim: number;
  /** SHA-256 (hex) of the weight table, when the embedder is table-driven. */
  readonly tableHash?: string;
  /**
   * Embeds each text to a unit-length vector (the zero vector only when the text carries no signal). `opts.pace`,
   * when given, is awaited between texts and within long ones (a deadline check and a yield, SPEC §8); the vectors
   * are the same with or without it.
   */
  embed(texts: string[], opts?: EmbedOptions): Promise<Float32Array[]>;
}

/** Options of one `embed` call. */
export interface EmbedOptions {
  /** A slice boundary of the caller's work (src/core/deadline.ts). */
  pace?: () => Promise<void>;
}
