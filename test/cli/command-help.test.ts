/**
 * What a user learns from `cairn <command> --help` alone: every command that takes an action (or a connector kind)
 * lists each one with what it does and a one-line example. Runs the same entry as the bin in-process (`runCli`);
 * `test/cli/cli.test.ts` keeps the real-process help check.
 */
import { describe, expect, it } from "vitest";
import { knownKinds } from "../../src/connectors/kinds.ts";
import { cairnInProcess } from "../_helpers/cli.ts";

/** The actions each command dispatches on (the connector kinds for `connect`). */
const ACTIONS: Record<string, readonly string[]> = {
  review: ["list", "show", "approve", "reject"],
  ump: ["keygen", "token", "revoke", "export", "import"],
  parcel: ["export", "import", "ledger"],
  migrate: ["multi-db"],
  connect: knownKinds(),
  workflow: ["note"],
  kb: ["build"],
};

/** The lines of one titled help section (`Actions:`, `Kinds:`, `Examples:`), indented entries up to the next blank line. */
function section(help: string, title: string): string[] {
  const lines = help.split("\n");
  const at = lines.findIndex((l) => l.trim() === `${title}:`);
  if (at < 0) return [];
  const out: string[] = [];
  for (const l of lines.slice(at + 1)) {
    if (!l.trim()) break;
    out.push(l);
  }
  return out;
}

describe("cairn <command> --help", () => {
  it("names the five connector kinds in connect --help and reject in review --help", async () => {
    expect(knownKinds()).toEqual(["custom", "freshdesk", "github", "jira", "zendesk"]);
    const connect = (await cairnInProcess(["connect", "--help"], {})).stdout;
    for (const kind of ["github", "zendesk", "freshdesk", "jira", "custom"]) expect(connect).toContain(`cairn connect ${kind} `);
    expect((await cairnInProcess(["review", "--help"], {})).stdout).toContain("cairn review reject ");
  });

  for (const [command, actions] of Object.entries(ACTIONS)) {
    it(`${command} --help lists each action (${actions.join(", ")}) with what it does and a one-line example`, async () => {
      const r = await cairnInProcess([command, "--help"], {});
      expect(r.code).toBe(0);
      const listed = section(r.stdout, command === "connect" ? "Kinds" : "Actions");
      const examples = section(r.stdout, "Examples");
      for (const action of actions) {
        // `  <action> …  <what it does>`: the action first, a description after it.
        expect(listed.some((l) => new RegExp(`^\\s+${action}\\s.*\\s{2,}\\S`).test(l)), `${command} ${action} listed:\n${r.stdout}`).toBe(true);
        expect(examples.filter((l) => l.trim().startsWith(`cairn ${command} ${action}`)), `${command} ${action} example:\n${r.stdout}`).toHaveLength(1);
      }
      // Nothing listed that the command does not dispatch on.
      for (const l of listed) expect(actions).toContain(l.trim().split(/\s+/)[0]);
    });
  }
});
