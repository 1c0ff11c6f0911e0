/** Options of the HTTP binding. */
export interface AppOptions {
  /** The OpenAPI document served at `/openapi.yaml`. */
  openapiYaml: string;
}
