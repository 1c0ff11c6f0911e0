/**
 * Cairn's public API (STYLE rule 2): explicit named exports only. Embed the
 * store in a program with `openMemory(parseConfig(env), ports)` and serve it
 * with `createApp(memory, {openapiYaml})`, or boot the whole service with
 * `bootServer(env)`.
 */
export { parseConfig, isLoopbackAddr } from "./src/config/parse-config.ts";
export { ConfigError } from "./src/config/read-var.ts";
export type { Config, WritePosture } from "./src/config/config.ts";
export { MemoryError, isMemoryError } from "./src/core/errors.ts";
export { VERSION, API_LABEL } from "./src/core/version.ts";
export type { Chunk, EntityInput, RelationInput, IngestKind, Origin, AssertionKind } from "./src/core/types.ts";
export { openMemory } from "./src/memory.ts";
export type { Memory, MemoryPorts } from "./src/memory.ts";
export type { Embedder } from "./src/embed/embedder.ts";
// Request and reply types are the schemas every binding validates with (README "Types"; docs/library.md).
export type { IngestBatchInput, IngestInput, IngestResult, MarkdownInput } from "./src/ingest/ingest-schema.ts";
export type { RecallHit, RecallInput, RecallReply } from "./src/recall/recall-schema.ts";
// --- recall (issue 3): embedders, the lexical leg, recall parameters, confidence, bulk ingest, eval ---
export { createStaticEmbedder, DEFAULT_STATIC_ASSET_PATH, STATIC_MODEL_ID } from "./src/embed/static-embedder.ts";
export { MAX_BATCH_ITEMS } from "./src/ingest/ingest-batch.ts";
export type { BatchResult } from "./src/ingest/ingest-batch.ts";
export { DEFAULT_RECALL_PARAMS } from "./src/recall/recall-params.ts";
export type { RecallParams } from "./src/recall/recall-params.ts";
export { DEFAULT_RERANK_WEIGHTS } from "./src/recall/rerank.ts";
export type { RerankWeights } from "./src/recall/rerank.ts";
export { assessQuality, CONFIDENCE_MODELS, FEATURE_NAMES, featuresOf } from "./src/recall/quality.ts";
export type { ConfidenceProfile, QualityAssessment, QualitySignals } from "./src/recall/quality.ts";
export { reciprocalRankFusion, RRF_K } from "./src/recall/fusion.ts";
export type { CrossScorer, GraphLeg, TemporalFilter } from "./src/recall/ports.ts";
export * as lexical from "./src/lexical/mod.ts";
export * as evaluation from "./src/eval/mod.ts";
export { checkFloors, evalBeir, evalLocomo, parseFloors } from "./src/eval/recall-eval.ts";
export type { EvalReport, EvalScores, EvalStore } from "./src/eval/recall-eval.ts";
export type { DomainEntry, DomainService } from "./src/domains/domain-service.ts";
export { createApp } from "./src/http/app.ts";
export type { AppOptions } from "./src/http/options.ts";
export { bootServer } from "./src/server.ts";
export type { BootedServer } from "./src/server.ts";
// --- auth, authorization and limits (issue 8) ---
export type { Principal, PrincipalKind } from "./src/auth/principal.ts";
export type { Gate } from "./src/authz/gate.ts";
export { decide, assertDomainAdmin } from "./src/authz/oracle.ts";
export type { Verdict, VerdictKind, VerdictReason } from "./src/authz/oracle.ts";
export { ROLE_PRESETS, canReadPii, hasPermission } from "./src/authz/roles.ts";
export { GATES, PUBLIC_ROUTES } from "./src/http/gates.ts";
export type { ErasureNotice } from "./src/outbound/erasure-webhook.ts";
// Receivers of the erasure and alert webhooks verify with the same Standard-Webhooks code (SPEC §5 item 8).
export { signWebhook, verifyWebhook } from "./src/outbound/webhook-signature.ts";
export type { WebhookSecret, WebhookVerifyResult } from "./src/outbound/webhook-signature.ts";
// --- governance (issue 6) ---
export { POSTURE_DOORS, routeWrite } from "./src/review/route-write.ts";
export type { PostureDoor } from "./src/review/route-write.ts";
export { defaultReadCanonical, widenReadCanonical } from "./src/review/read-canonical.ts";
export type { ReadCanonical } from "./src/review/read-canonical.ts";
export { contentDigest } from "./src/review/content-digest.ts";
export type { ReviewService } from "./src/review/review-service.ts";
export type { ProposalView } from "./src/review/review-view.ts";
export type { ConsolidateService, LinkView } from "./src/review/consolidate-service.ts";
export { dbTemporalSource, temporalFilter } from "./src/review/recall-filter.ts";
export type { TemporalOptions, TemporalSource } from "./src/review/recall-filter.ts";
export { CERTIFICATE_FORMAT, certificateDigest, subjectDigest, verifyCertificate } from "./src/erasure/certificate.ts";
export type { Certificate, ErasureSubject } from "./src/erasure/certificate.ts";
export type { ErasureService } from "./src/erasure/erasure-service.ts";
