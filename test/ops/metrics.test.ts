import { afterEach, describe, expect, it } from "vitest";
import { openTestMemory, type TestMemory } from "../_helpers/memory.ts";

let t: TestMemory | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe("GET /metrics (SPEC §4.8)", () => {
  it("serves Prometheus text with RSS, per-route request counts and latency, write-slot series and provider tokens", async () => {
    t = await openTestMemory({}, { rssBytes: () => 300 * 1048576 });
    await t.req("POST", "/ingest", { title: "a", content: "alpha" });
    await t.req("POST", "/ingest", { title: "b", content: "beta" });
    await t.req("DELETE", "/memory/999999");
    await t.req("GET", "/nowhere/at/all");
    t.memory.security.metrics.addProviderTokens("local-llm", { prompt: 120, completion: 30 });
    const res = await t.req("GET", "/metrics");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers.get("deprecation")).toBe('version="0.9.5"');
    const text = await res.text();
    expect(text).toMatch(/^# TYPE brain_rss_mib gauge$/m);
    expect(text).toMatch(/^brain_rss_mib 300$/m);
    expect(text).toMatch(/^cairn_http_requests_total\{method="POST",route="\/ingest",status="200"\} 2$/m);
    expect(text).toMatch(/^cairn_http_requests_total\{method="DELETE",route="\/memory\/:id",status="404"\} 1$/m);
    // Unmatched paths share one label: raw paths never become series.
    expect(text).toMatch(/^cairn_http_requests_total\{method="GET",route="unmatched",status="404"\} 1$/m);
    expect(text).not.toContain("/nowhere");
    expect(text).toMatch(/^cairn_http_request_duration_seconds_bucket\{method="POST",route="\/ingest",le="\+Inf"\} 2$/m);
    expect(text).toMatch(/^cairn_http_request_duration_seconds_count\{method="POST",route="\/ingest"\} 2$/m);
    // Two ingests: at least two writes waited for the write slot.
    const lockCount = Number(/^cairn_db_lock_wait_seconds_count (\d+)$/m.exec(text)?.[1]);
    expect(lockCount).toBeGreaterThanOrEqual(2);
    expect(text).toMatch(/^cairn_db_busy_errors_total 0$/m);
    expect(text).toMatch(/^cairn_db_pool_timeouts_total 0$/m);
    expect(text).toMatch(/^cairn_provider_tokens_total\{provider="local-llm",kind="prompt"\} 120$/m);
    expect(text).toMatch(/^cairn_provider_tokens_total\{provider="local-llm",kind="completion"\} 30$/m);
    expect(text).toMatch(/^cairn_rate_limit_buckets 1$/m);
  });

  it("counts 401s by reason and authorization refusals by closed reason", async () => {
    t = await openTestMemory({ AUTH_TOKEN: "metrics-token-abcdef" });
    await t.req("GET", "/stats");
    await t.req("GET", "/stats", undefined, { authorization: "Bearer wrong" });
    const text = await (await t.req("GET", "/metrics", undefined, { authorization: "Bearer metrics-token-abcdef" })).text();
    expect(text).toMatch(/^cairn_auth_failures_total\{reason="missing"\} 1$/m);
    expect(text).toMatch(/^cairn_auth_failures_total\{reason="invalid"\} 1$/m);
  });
});
