/** Memories for the snapshot tests, each with its own static embedder (export and import carry embeddings). */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createStaticEmbedder, DEFAULT_STATIC_ASSET_PATH } from "../../src/embed/static-embedder.ts";
import { type FreshMemories, useTestMemories } from "../_helpers/memories.ts";

const root = resolve(new URL("../..", import.meta.url).pathname);
const embedder = () => createStaticEmbedder(new Uint8Array(readFileSync(resolve(root, DEFAULT_STATIC_ASSET_PATH))));

/** Installs an afterEach that closes every memory opened; the returned `server(env)` opens one. */
export function useSnapshotServers(): FreshMemories {
  return useTestMemories({}, () => ({ embedder: embedder() }));
}
