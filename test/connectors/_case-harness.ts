/**
 * Drives a case vendor module directly over the real core pieces: the real `createVendorHttp` (outbound client,
 * config-only origins, loopback opt-in, no redirects, retries), real 0600 secret files and the real salted
 * `subjectRef`. Waits are recorded instead of slept so a 429's Retry-After costs no wall time.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSubjectRef } from "../../src/connectors/subject-salt.ts";
import { createVendorHttp } from "../../src/connectors/vendor-http.ts";
import type { ConnectorRecord, VendorFactory, VendorSource } from "../../src/connectors/vendor.ts";
import { privateSaltFile, readPrivateText } from "../../src/runtime/private-file.ts";

/** A source built over the real VendorHttp, with the waits it asked for. */
export interface Driven {
  source: VendorSource;
  waits: number[];
  dir: string;
}

/** Writes a 0600 secret file and returns its path. */
export function secretFile(dir: string, name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, `${text}\n`, { mode: 0o600 });
  return p;
}

/** Builds `factory(config)` over the real core pieces; `origins` are the allowed origins (the config's base URL). */
export function drive(factory: VendorFactory, config: (dir: string) => Record<string, unknown>, origins: string[]): Driven {
  const dir = mkdtempSync(join(tmpdir(), "cairn-case-"));
  const waits: number[] = [];
  const http = createVendorHttp({ allowedOrigins: origins, allowLoopback: true, resolve: async () => [], sleep: async (ms) => void waits.push(ms) });
  const source = factory(config(dir), {
    http,
    readSecret: async (p) => (await readPrivateText(p, "connector secret")) ?? "",
    subjectRef: createSubjectRef(privateSaltFile(join(dir, "subject-salt"))),
    now: () => new Date("2026-11-25T12:00:00Z"),
  });
  return { source, waits, dir };
}

/** Every record of a full backfill, page by page, and the cursors seen. */
export async function backfill(source: VendorSource, from: string | null = null): Promise<{ records: ConnectorRecord[]; pages: number }> {
  const records: ConnectorRecord[] = [];
  let cursor = from;
  let pages = 0;
  do {
    const p = await source.page(cursor);
    records.push(...p.records);
    cursor = p.cursor;
    pages++;
  } while (cursor !== null && pages < 1000);
  return { records, pages };
}
