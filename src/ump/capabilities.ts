/**
 * The capabilities document (SPEC §2.8; UMP notes "Operations"), public at
 * `GET /ump/capabilities` and `/.well-known/ump.json`. Conformance is `L3`
 * when an operator key is configured (signatures and capability tokens),
 * otherwise `L2` (content hashes only).
 */
import { VERSION } from "../core/version.ts";
import { KINDS, UMP_VERSION } from "./record.ts";

/** The largest UMP recall `limit` (SPEC §8). */
export const MAX_RECALL = 50;

/** The document. */
export interface Capabilities {
  server: { name: string; version: string };
  ump: string;
  conformance: "L2" | "L3";
  kinds: string[];
  bindings: string[];
  retrieval_signals: string[];
  max_recall: number;
  writable: boolean;
  audit: boolean;
}

/** Builds the document for the current key state. */
export function capabilities(keyed: boolean): Capabilities {
  return {
    server: { name: "cairn", version: VERSION },
    ump: UMP_VERSION,
    conformance: keyed ? "L3" : "L2",
    kinds: [...KINDS],
    bindings: ["http", "mcp", "file"],
    retrieval_signals: ["similarity", "recency", "salience", "scope_match", "provenance_depth"],
    max_recall: MAX_RECALL,
    writable: true,
    audit: true,
  };
}
