#!/usr/bin/env node
// A stand-in for the `signal-cli` executable the gateway starts (`signal-cli [--config DIR] jsonRpc`): it records
// its arguments to $FAKE_SIGNAL_CLI_ARGS and relays stdin/stdout, line for line, to the test's fake signal-cli
// UNIX socket at $FAKE_SIGNAL_CLI_SOCKET (fake-signal-cli.ts), which speaks the documented JSON-RPC messages.
import { appendFileSync } from "node:fs";
import { createConnection } from "node:net";

if (process.env.FAKE_SIGNAL_CLI_ARGS) appendFileSync(process.env.FAKE_SIGNAL_CLI_ARGS, JSON.stringify(process.argv.slice(2)) + "\n");
if (!process.argv.includes("jsonRpc")) {
  process.stderr.write("fake signal-cli: only jsonRpc is offered\n");
  process.exit(2);
}
const sock = createConnection({ path: process.env.FAKE_SIGNAL_CLI_SOCKET });
process.stdin.pipe(sock);
sock.pipe(process.stdout);
sock.on("close", () => process.exit(0));
process.stdin.on("end", () => sock.end());
process.on("SIGTERM", () => process.exit(0));
