/** Options of the HTTP binding. */
export interface AppOptions {
  /**
   * Ignored: `/openapi.yaml` serves the document generated from the route declarations (issue 21).
   * @deprecated Kept so existing callers of `createApp(memory, {openapiYaml})` still compile.
   */
  openapiYaml?: string;
}
