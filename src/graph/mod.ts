/**
 * Public surface of the knowledge-graph domain module (SPEC §2.6, §3, §4.6,
 * §1 Retrieval pipeline step 6): pure validation, linking, bi-temporal
 * planning, traversal and Personalized PageRank. No SQL and no I/O here; the
 * store layer executes the plans and answers the adjacency port. See
 * `src/graph/README.md` for wiring and measured figures.
 */
export {
  cleanEntityName,
  GRAPH_LIMITS,
  isRelationType,
  normalizeEntityName,
  normalizeRelationType,
  truncateEntityName,
  unlistedEndpoints,
  validateEntityName,
  validateEntityType,
  validateGraphInput,
  validateRelationType,
} from "./validate.ts";
export type { ValidEntity, ValidRelation } from "./validate.ts";
export { buildGraph, normalizeByDegree, personalizedPageRank, topScores } from "./ppr.ts";
export type { BuildGraphOptions, GraphEdge, PprGraph, PprOptions } from "./ppr.ts";
export { extractAnnotations, extractRelations, findMentions, headingPartOf, taxonomyEdges } from "./linker.ts";
export type { Annotation, AnnotationResult, Heading, InvalidAnnotation, LinkedRelation, Mention, NamedEdge } from "./linker.ts";
export { VERB_PATTERNS } from "./patterns.ts";
export type { VerbPattern } from "./patterns.ts";
export { currentEdges, edgesAt, historyOrder, planEdgeUpsert } from "./bitemporal.ts";
export type { EdgePlan, EdgeVersion, HistoryVersion, NewEdgeTimes, ValidWindow } from "./bitemporal.ts";
export { kindFilter, traverse, TRAVERSE_LIMITS } from "./traverse.ts";
export type { Hop, NeighborFn, NodeRef, TraverseEdge, TraverseOptions, TraverseResult } from "./traverse.ts";
export { matchEntityNames, relationCues } from "./seeds.ts";
export type { SeedOptions } from "./seeds.ts";
