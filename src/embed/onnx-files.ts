/**
 * Shared, Node-only plumbing of the opt-in ONNX loaders (embedder and
 * cross-encoder): checks a transformers.js model directory before handing it
 * over, picks the ONNX weight file, hashes it for a stable id, and imports
 * `@huggingface/transformers` lazily with remote loading switched off.
 * ONNX Runtime is onnxruntime-node by default, onnxruntime-web (wasm, local
 * files) when asked or when the native addon cannot load.
 * Uses `node:fs`/`node:crypto` on purpose (the lead's brief for the ONNX
 * lane: it is loaded only by dynamic `import()` when `CAIRN_EMBED_KIND=onnx`
 * or a rerank model dir is set, never statically from the rest of `src/`).
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, dirname, join, resolve, sep } from "node:path";
import { modelInvalid } from "./model2vec-invalid.ts";

/** ONNX weight variants transformers.js knows, in the order we prefer them (full precision first). */
const VARIANTS: ReadonlyArray<{ dtype: string; file: string }> = [
  { dtype: "fp32", file: "model.onnx" },
  { dtype: "q8", file: "model_quantized.onnx" },
  { dtype: "int8", file: "model_int8.onnx" },
  { dtype: "uint8", file: "model_uint8.onnx" },
  { dtype: "fp16", file: "model_fp16.onnx" },
  { dtype: "q4", file: "model_q4.onnx" },
];

/** A checked transformers.js model directory. */
export interface OnnxModelDir {
  /** Absolute directory path (used as the transformers.js model id, so it never resolves remotely). */
  readonly dir: string;
  /** Sanitised directory name, used in ids. */
  readonly name: string;
  /** `"onnx"` or `""`: where the weight file sits. */
  readonly subfolder: string;
  /** transformers.js dtype naming the chosen file. */
  readonly dtype: string;
  /** Whether a `<file>_data` external-weights file sits beside it. */
  readonly externalData: boolean;
  /** SHA-256 (hex) of the ONNX file. */
  readonly modelHash: string;
  /** Short hash of model + tokenizer, for the id. */
  readonly idHash: string;
  /** Parsed config.json. */
  readonly config: Record<string, unknown>;
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

async function sha256File(path: string): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest("hex");
}

/** Checks `dir` holds config.json, tokenizer.json, tokenizer_config.json and an ONNX file; throws `embed_model_invalid` naming what is missing. */
export async function inspectOnnxDir(dirPath: string, what: string, dtype?: string): Promise<OnnxModelDir> {
  const dir = resolve(dirPath);
  const isDir = await stat(dir).then((s) => s.isDirectory(), () => false);
  if (!isDir) throw modelInvalid(`${what} model directory does not exist or is not a directory`);
  // transformers.js builds no tokenizer without tokenizer_config.json ("this.tokenizer is not a function").
  for (const f of ["config.json", "tokenizer.json", "tokenizer_config.json"]) {
    if (!(await exists(join(dir, f)))) throw modelInvalid(`${what} model directory has no ${f}`);
  }
  const config = await readJson(join(dir, "config.json"), "config.json");
  await readJson(join(dir, "tokenizer.json"), "tokenizer.json");
  await readJson(join(dir, "tokenizer_config.json"), "tokenizer_config.json");
  const candidates = dtype ? VARIANTS.filter((v) => v.dtype === dtype) : VARIANTS;
  if (dtype && candidates.length === 0) throw modelInvalid(`${what} dtype "${dtype}" is not one of ${VARIANTS.map((v) => v.dtype).join(", ")}`);
  for (const subfolder of ["onnx", ""]) {
    for (const v of candidates) {
      const file = join(dir, subfolder, v.file);
      if (!(await exists(file))) continue;
      if ((await stat(file)).size === 0) throw modelInvalid(`${what} ${join(subfolder, v.file)} is empty`);
      const modelHash = await sha256File(file);
      const tok = await readFile(join(dir, "tokenizer.json"));
      const idHash = createHash("sha256").update(modelHash).update("\n").update(tok).digest("hex").slice(0, 12);
      const name = basename(dir).replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^-+|-+$/g, "") || "model";
      const externalData = await exists(`${file}_data`);
      return { dir, name, subfolder, dtype: v.dtype, externalData, modelHash, idHash, config };
    }
  }
  const wanted = candidates.map((v) => `onnx/${v.file}`).join(", ");
  throw modelInvalid(`${what} model directory has no ONNX weights (looked for ${wanted})`);
}

async function readJson(path: string, file: string): Promise<Record<string, unknown>> {
  let v: unknown;
  try {
    v = JSON.parse(await readFile(path, "utf8"));
  } catch {
    throw modelInvalid(`${file} is not valid JSON`);
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw modelInvalid(`${file} is not a JSON object`);
  return v as Record<string, unknown>;
}

/** Which ONNX Runtime build runs the graph: the native addon, WebAssembly, or native with wasm fallback. */
export type OnnxBackend = "auto" | "node" | "wasm";

type Transformers = typeof import("@huggingface/transformers");
// transformers.js binds its ONNX runtime once, at import, from globalThis[Symbol.for("onnxruntime")]
// or onnxruntime-node; so the choice is per process and is remembered here.
let loaded: Promise<{ t: Transformers; backend: "node" | "wasm" }> | undefined;
let requested: OnnxBackend | undefined;

async function pickBackend(pref: OnnxBackend): Promise<"node" | "wasm"> {
  if (pref === "wasm") return "wasm";
  try {
    await import("onnxruntime-node");
    return "node";
  } catch (e) {
    if (pref === "node") throw modelInvalid(`The onnxruntime-node backend cannot load on this machine (${firstLine(e)})`);
    return "wasm";
  }
}

const ORT_SYMBOL = Symbol.for("onnxruntime");

/**
 * Issue 21: the ONNX lanes' packages are optional peers, absent from a lean install; a missing one is named in one
 * line with the command that installs it.
 */
async function importOptional<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    const msg = String((e as { message?: unknown }).message ?? e);
    if ((e as { code?: string }).code === "ERR_MODULE_NOT_FOUND" && msg.includes(name) || /Cannot find (package|module)/.test(msg) && msg.includes(name)) {
      throw modelInvalid(`CAIRN_EMBED_KIND=onnx needs the optional package ${name}: npm install ${name}`);
    }
    throw e;
  }
}

async function load(pref: OnnxBackend): Promise<{ t: Transformers; backend: "node" | "wasm" }> {
  // A runtime already injected into this process (e.g. by an earlier module instance) wins in transformers.js.
  const injected = (globalThis as Record<symbol, unknown>)[ORT_SYMBOL] !== undefined;
  if (injected && pref === "node") throw modelInvalid("A web ONNX Runtime is already bound in this process; cannot use onnxruntime-node");
  const backend = injected ? "wasm" : await pickBackend(pref);
  if (backend === "wasm" && !injected) {
    const ort = await importOptional("onnxruntime-web", () => import("onnxruntime-web"));
    // Local wasm files: transformers.js would otherwise point wasmPaths at a CDN.
    const dist = dirname(createRequire(import.meta.url).resolve("onnxruntime-web"));
    ort.env.wasm.wasmPaths = dist.endsWith(sep) ? dist : dist + sep;
    (globalThis as Record<symbol, unknown>)[ORT_SYMBOL] = ort;
  }
  const t = await importOptional("@huggingface/transformers", () => import("@huggingface/transformers"));
  return { t, backend };
}

/** transformers.js, imported on first use with remote models disabled and no caches; reports the bound backend. */
export async function importTransformers(dir: string, pref: OnnxBackend = "auto"): Promise<{ t: Transformers; backend: "node" | "wasm" }> {
  if (!loaded) {
    requested = pref;
    loaded = load(pref);
    loaded.catch(() => {
      loaded = undefined;
    });
  }
  let out: { t: Transformers; backend: "node" | "wasm" };
  try {
    out = await loaded;
  } catch (e) {
    if ((e as { code?: string }).code === "embed_model_invalid") throw e;
    throw modelInvalid(`The ONNX loaders need the @huggingface/transformers package and an ONNX Runtime (${firstLine(e)})`);
  }
  if (pref !== "auto" && pref !== out.backend) {
    throw modelInvalid(`ONNX Runtime is already bound to the ${out.backend} backend in this process (first asked for "${requested}"); cannot switch to ${pref}`);
  }
  // Local files only: never reach a hub, never write a cache. The model id is an absolute path,
  // which transformers.js reads directly; localModelPath is set to its parent for the same reason.
  out.t.env.allowRemoteModels = false;
  out.t.env.allowLocalModels = true;
  out.t.env.localModelPath = dirname(dir);
  out.t.env.useFSCache = false;
  out.t.env.useBrowserCache = false;
  return out;
}

/** Options passed to every transformers.js `from_pretrained` / `pipeline` for a checked directory. */
export function pretrainedOptions(m: OnnxModelDir, backend: "node" | "wasm") {
  return {
    local_files_only: true,
    subfolder: m.subfolder,
    dtype: m.dtype as "fp32",
    // With an injected (wasm) runtime transformers.js lists no devices; "auto" lets ORT use its default, wasm.
    device: backend === "node" ? ("cpu" as const) : ("auto" as const),
    use_external_data_format: m.externalData,
  };
}

/** Wraps a runtime failure into `embed_model_invalid`, with the model path replaced so no path leaks. */
export function loadFailure(what: string, m: OnnxModelDir, e: unknown): Error {
  return modelInvalid(`${what} could not be loaded: ${firstLine(e).split(m.dir).join("<model dir>")}`);
}

function firstLine(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return (msg.split("\n").find((l) => l.trim() !== "") ?? "unknown error").trim().slice(0, 300);
}
