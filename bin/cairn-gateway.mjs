#!/usr/bin/env node
// npm `bin` entry of the messaging gateway (SPEC §4.13): a separate process that talks to Cairn only over HTTP.
// Node 20 cannot run TypeScript itself: register tsx and load gateway.ts.
const { register } = await import("tsx/esm/api");
register();
await import("../gateway.ts");
