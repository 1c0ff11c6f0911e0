/**
 * `cairn/files`: the UMP file binding without a server (issue 21; SPEC §4.2,
 * §2.8): read and write `*.ump.json` / NDJSON and the `*.ump.md` markdown
 * projection, compute content hashes and record ids, sign and verify records
 * with Ed25519 `did:key` identities. Pure functions, no store, no network.
 */
export { parseUmpJson, parseUmpMarkdown, serialiseUmpJson, serialiseUmpMarkdown } from "./file-projection.ts";
export type { FileRecord } from "./file-projection.ts";
export { canonicalize, canonicalBytes } from "./canonical-json.ts";
export { contentHash, recordId, randomRecordId, withContentHash, withoutIntegrity } from "./content-hash.ts";
export { signRecord, verifyRecord, verifyRecordAsync } from "./sign.ts";
export type { VerifyFailure, VerifyRecordOptions, VerifyRecordResult } from "./sign.ts";
export { didFromPublicKey, didFromSeed, generateSeed, publicKeyFromDid, publicKeyFromSeed } from "./did-key.ts";
export { UMP_VERSION, KINDS } from "./record.ts";
export { MemoryError, isMemoryError } from "../core/errors.ts";
