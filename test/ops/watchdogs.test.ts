import { describe, expect, it } from "vitest";
import { createRssWatchdog, createSlotTracker } from "../../src/ops/watchdogs.ts";

type Line = [string, string, Record<string, unknown>];

describe("watchdogs (SPEC §8)", () => {
  it("RSS: warns once over the envelope, errors on the second consecutive sample and exits only with restart", () => {
    for (const restart of [false, true]) {
      const logs: Line[] = [];
      const exits: number[] = [];
      const alerts: string[] = [];
      const samples = [100, 600, 400, 600, 700, 800].map((m) => m * 1048576);
      let i = 0;
      const w = createRssWatchdog({
        sampleBytes: () => samples[i++]!, maxMib: 512, restart, exit: (c) => exits.push(c),
        log: (level, message, fields) => logs.push([level, message, fields]), alert: (kind) => alerts.push(kind),
      });
      expect([w.tick(), w.tick(), w.tick(), w.tick(), w.tick(), w.tick()]).toEqual([0, 1, 0, 1, 2, 3]);
      expect(logs.map((l) => l[0])).toEqual(["warn", "warn", "error", "error"]);
      expect(logs[2]![2]).toMatchObject({ rss_mib: 700, max_rss_mib: 512, consecutive: 2, restart });
      expect(alerts).toEqual(["rss_over_envelope"]);
      expect(exits).toEqual(restart ? [1, 1] : []);
    }
  });

  it("connection watchdog flags only slots held over 300 s, and only logs", () => {
    const logs: Line[] = [];
    const slots = createSlotTracker(300_000, { log: (level, message, fields) => logs.push([level, message, fields]) });
    const done = slots.open("POST /ingest", 0);
    slots.open("GET /ump/subscribe", 100_000);
    expect(slots.tick(200_000)).toBe(0);
    expect(slots.tick(350_000)).toBe(1);
    expect(logs).toEqual([["warn", "connection watchdog: slot held too long", { route: "POST /ingest", held_s: 350 }]]);
    done();
    expect(slots.size()).toBe(1);
    expect(slots.tick(350_000)).toBe(0);
  });
});
