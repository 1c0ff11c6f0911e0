/**
 * A minimal protobuf writer for ONNX (ModelProto, GraphProto, NodeProto,
 * TensorProto, ValueInfoProto, AttributeProto), and two tiny graphs built
 * with it: a sentence embedder (`input_ids` → Gather → mask → 
 * `last_hidden_state`) and a cross-encoder whose `logits [batch, 1]` are the
 * dot product of the query-segment and document-segment token sums. Written
 * with the transformers.js files beside them (config.json, tokenizer.json,
 * tokenizer_config.json, onnx/model.onnx).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { clusteredTable, tinyVocab, TOPICS, wordPieceTokenizerJson } from "./tiny-models.ts";

// ---- protobuf wire format ----
type Field = Uint8Array;

function varint(value: number | bigint): number[] {
  let v = BigInt.asUintN(64, BigInt(value)); // negative int64 → ten-byte two's complement
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}
const concat = (parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
};
const intField = (no: number, v: number | bigint): Field => new Uint8Array([...varint(no << 3), ...varint(v)]);
const bytesField = (no: number, b: Uint8Array): Field => concat([new Uint8Array([...varint((no << 3) | 2), ...varint(b.byteLength)]), b]);
const strField = (no: number, s: string): Field => bytesField(no, new TextEncoder().encode(s));
const msg = (...fields: Array<Field | Field[]>): Uint8Array => concat(fields.flat());

// ---- ONNX messages ----
/** ONNX TensorProto.DataType values used here. */
export const DT = { FLOAT: 1, INT64: 7 } as const;

/** TensorProto with raw little-endian data. */
export function tensor(name: string, dataType: number, dims: number[], raw: Uint8Array): Uint8Array {
  return msg(dims.map((d) => intField(1, d)), intField(2, dataType), strField(8, name), bytesField(9, raw));
}
/** A FLOAT initializer. */
export const floatTensor = (name: string, dims: number[], data: Float32Array) => tensor(name, DT.FLOAT, dims, new Uint8Array(Float32Array.from(data).buffer));
/** An INT64 initializer. */
export const int64Tensor = (name: string, dims: number[], data: number[]) => tensor(name, DT.INT64, dims, new Uint8Array(BigInt64Array.from(data.map(BigInt)).buffer));

/** ValueInfoProto for a tensor; string dims are symbolic (dim_param). */
export function valueInfo(name: string, elemType: number, dims: Array<number | string>): Uint8Array {
  const shape = msg(dims.map((d) => bytesField(1, typeof d === "number" ? intField(1, d) : strField(2, d))));
  const tensorType = msg(intField(1, elemType), bytesField(2, shape));
  return msg(strField(1, name), bytesField(2, msg(bytesField(1, tensorType))));
}

/** AttributeProto of type INT (2). */
export const intAttr = (name: string, v: number) => msg(strField(1, name), intField(3, v), intField(20, 2));

/** NodeProto. */
export function node(op: string, inputs: string[], outputs: string[], attrs: Uint8Array[] = []): Uint8Array {
  return msg(inputs.map((i) => strField(1, i)), outputs.map((o) => strField(2, o)), strField(3, `${op}_${outputs[0]}`), strField(4, op), attrs.map((a) => bytesField(5, a)));
}

/** ModelProto (IR 8, default-domain opset 13) around one graph. */
export function model(g: { nodes: Uint8Array[]; initializers: Uint8Array[]; inputs: Uint8Array[]; outputs: Uint8Array[] }): Uint8Array {
  const graph = msg(
    g.nodes.map((n) => bytesField(1, n)), strField(2, "tiny"), g.initializers.map((t) => bytesField(5, t)),
    g.inputs.map((v) => bytesField(11, v)), g.outputs.map((v) => bytesField(12, v)),
  );
  return msg(intField(1, 8), strField(2, "cairn-tests"), bytesField(7, graph), bytesField(8, msg(strField(1, ""), intField(2, 13))));
}

// ---- the two tiny graphs ----
const ids = (n: string) => valueInfo(n, DT.INT64, ["batch", "seq"]);

/** input_ids, attention_mask → last_hidden_state = E[input_ids] * mask. */
export function embedderOnnx(table: Float32Array, vocabSize: number, dim: number): Uint8Array {
  return model({
    initializers: [floatTensor("E", [vocabSize, dim], table), int64Tensor("axis_last", [1], [-1])],
    inputs: [ids("input_ids"), ids("attention_mask")],
    outputs: [valueInfo("last_hidden_state", DT.FLOAT, ["batch", "seq", dim])],
    nodes: [
      node("Gather", ["E", "input_ids"], ["tok"], [intAttr("axis", 0)]),
      node("Cast", ["attention_mask"], ["mask_f"], [intAttr("to", DT.FLOAT)]),
      node("Unsqueeze", ["mask_f", "axis_last"], ["mask3"]),
      node("Mul", ["tok", "mask3"], ["last_hidden_state"]),
    ],
  });
}

/** input_ids, attention_mask, token_type_ids → logits[b,1] = <Σ query-token rows, Σ document-token rows>. */
export function crossEncoderOnnx(table: Float32Array, vocabSize: number, dim: number): Uint8Array {
  return model({
    initializers: [floatTensor("E", [vocabSize, dim], table), int64Tensor("axis_last", [1], [-1]), int64Tensor("axis_seq", [1], [1])],
    inputs: [ids("input_ids"), ids("attention_mask"), ids("token_type_ids")],
    outputs: [valueInfo("logits", DT.FLOAT, ["batch", 1])],
    nodes: [
      node("Gather", ["E", "input_ids"], ["tok"], [intAttr("axis", 0)]),
      node("Cast", ["attention_mask"], ["mask_f"], [intAttr("to", DT.FLOAT)]),
      node("Cast", ["token_type_ids"], ["type_f"], [intAttr("to", DT.FLOAT)]),
      node("Mul", ["mask_f", "type_f"], ["doc_m"]),
      node("Sub", ["mask_f", "doc_m"], ["query_m"]),
      node("Unsqueeze", ["doc_m", "axis_last"], ["doc_m3"]),
      node("Unsqueeze", ["query_m", "axis_last"], ["query_m3"]),
      node("Mul", ["tok", "doc_m3"], ["doc_tok"]),
      node("Mul", ["tok", "query_m3"], ["query_tok"]),
      node("ReduceSum", ["doc_tok", "axis_seq"], ["doc_sum"], [intAttr("keepdims", 0)]),
      node("ReduceSum", ["query_tok", "axis_seq"], ["query_sum"], [intAttr("keepdims", 0)]),
      node("Mul", ["doc_sum", "query_sum"], ["prod"]),
      node("ReduceSum", ["prod", "axis_last"], ["logits"], [intAttr("keepdims", 1)]),
    ],
  });
}

/** Which tiny ONNX model to write. */
export type OnnxKind = "embedder" | "cross-encoder";

/** Writes a transformers.js model directory for the tiny graph; returns the model bytes and dims. */
export function writeOnnxModelDir(dir: string, kind: OnnxKind, opts: { dim?: number; file?: string } = {}) {
  const dim = opts.dim ?? 16;
  const vocab = tinyVocab();
  const table = clusteredTable(vocab, dim);
  const onnx = kind === "embedder" ? embedderOnnx(table, vocab.length, dim) : crossEncoderOnnx(table, vocab.length, dim);
  const config = {
    model_type: "bert",
    architectures: [kind === "embedder" ? "BertModel" : "BertForSequenceClassification"],
    hidden_size: dim, vocab_size: vocab.length, num_hidden_layers: 1, num_attention_heads: 1, max_position_embeddings: 512, type_vocab_size: 2,
    ...(kind === "cross-encoder" ? { id2label: { "0": "LABEL_0" }, label2id: { LABEL_0: 0 } } : {}),
  };
  const tokenizerConfig = {
    tokenizer_class: "BertTokenizer", do_lower_case: true, model_max_length: 512,
    cls_token: "[CLS]", sep_token: "[SEP]", pad_token: "[PAD]", unk_token: "[UNK]", mask_token: "[MASK]",
  };
  mkdirSync(join(dir, "onnx"), { recursive: true });
  writeFileSync(join(dir, "onnx", opts.file ?? "model.onnx"), onnx);
  writeFileSync(join(dir, "config.json"), JSON.stringify(config));
  writeFileSync(join(dir, "tokenizer.json"), wordPieceTokenizerJson(vocab));
  writeFileSync(join(dir, "tokenizer_config.json"), JSON.stringify(tokenizerConfig));
  return { onnx, dim, vocab };
}

/**
 * A tiny injection classifier (issue 26): logits[b, 2] = Σ over unmasked tokens of C[token], where C gives the
 * words of one topic (`triggers`) a strong "INJECTION" logit and every other token a small "SAFE" one.
 */
export function writeClassifierModelDir(dir: string, triggers: readonly string[] = TOPICS.pets) {
  const vocab = tinyVocab();
  const table = new Float32Array(vocab.length * 2);
  vocab.forEach((w, i) => {
    if (triggers.includes(w)) table[i * 2 + 1] = 3;
    else table[i * 2] = 0.5;
  });
  const onnx = model({
    initializers: [floatTensor("C", [vocab.length, 2], table), int64Tensor("axis_last", [1], [-1]), int64Tensor("axis_seq", [1], [1])],
    inputs: [ids("input_ids"), ids("attention_mask")],
    outputs: [valueInfo("logits", DT.FLOAT, ["batch", 2])],
    nodes: [
      node("Gather", ["C", "input_ids"], ["tok"], [intAttr("axis", 0)]),
      node("Cast", ["attention_mask"], ["mask_f"], [intAttr("to", DT.FLOAT)]),
      node("Unsqueeze", ["mask_f", "axis_last"], ["mask3"]),
      node("Mul", ["tok", "mask3"], ["masked"]),
      node("ReduceSum", ["masked", "axis_seq"], ["logits"], [intAttr("keepdims", 0)]),
    ],
  });
  const config = {
    model_type: "bert", architectures: ["BertForSequenceClassification"], hidden_size: 2, vocab_size: vocab.length,
    num_hidden_layers: 1, num_attention_heads: 1, max_position_embeddings: 512, type_vocab_size: 2,
    id2label: { "0": "SAFE", "1": "INJECTION" }, label2id: { SAFE: 0, INJECTION: 1 },
  };
  const tokenizerConfig = {
    tokenizer_class: "BertTokenizer", do_lower_case: true, model_max_length: 512,
    cls_token: "[CLS]", sep_token: "[SEP]", pad_token: "[PAD]", unk_token: "[UNK]", mask_token: "[MASK]",
  };
  mkdirSync(join(dir, "onnx"), { recursive: true });
  writeFileSync(join(dir, "onnx", "model.onnx"), onnx);
  writeFileSync(join(dir, "config.json"), JSON.stringify(config));
  writeFileSync(join(dir, "tokenizer.json"), wordPieceTokenizerJson(vocab));
  writeFileSync(join(dir, "tokenizer_config.json"), JSON.stringify(tokenizerConfig));
}
