/**
 * Write posture (SPEC §1 Runtime rules): `CAIRN_WRITE_POSTURE=open` (the
 * default) inserts directly — screened, not gated; `review` makes agent
 * write-back and auto-capture file proposals instead. The spec leaves open
 * which six endpoints carry the posture; this project's six are the doors
 * through which agents write back or content is captured automatically:
 *
 * 1. `POST /ingest/memory`            agent write-back (raw memory entries)
 * 2. `POST /add`                      agent write-back (deprecated raw text)
 * 3. `POST /ump/remember`             agent write-back over UMP
 * 4. `POST /ump/revise`               agent write-back over UMP (new version)
 * 5. `POST /ingest?format=ump|ump-md` record import, incl. case-connector bodies (SPEC "Connector rules")
 * 6. `POST /webhooks/channel/{kind}`  channel auto-capture
 *
 * Not posture-carrying: `POST /ingest` and `POST /ingest/markdown` (operator
 * and connector doors, always direct), `POST /ingest/proposal` (always a
 * proposal) and `POST /parcels/import` (always pending).
 */
import type { WritePosture } from "../config/config.ts";

/** The six posture-carrying doors. */
export const POSTURE_DOORS = [
  "/ingest/memory",
  "/add",
  "/ump/remember",
  "/ump/revise",
  "/ingest?format=ump",
  "/webhooks/channel",
] as const;

/** One posture-carrying door. */
export type PostureDoor = (typeof POSTURE_DOORS)[number];

/** Where a write through `door` goes under `posture`. */
export function routeWrite(posture: WritePosture, door: PostureDoor): "proposal" | "memory" {
  if (!(POSTURE_DOORS as readonly string[]).includes(door)) throw new TypeError(`not a posture-carrying door: ${door}`);
  return posture === "review" ? "proposal" : "memory";
}
