import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parseWebhookTimestamp, rfc3339, signWebhook, verifyWebhook, webhookSecretBytes } from "../../src/outbound/webhook-signature.ts";

const VECTOR = fileURLToPath(new URL("../../../shared/data/vectors/standard-webhooks.json", import.meta.url));
const present = existsSync(VECTOR);
if (!present) console.warn(`[skip] ${VECTOR} not found; Standard-Webhooks vector tests are skipped`);

// The vector values are also restated here for the tests that do not depend on the file.
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const ID = "msg_p5jXN8AQM9LWM0D4loKWxJek";
const TS = 1614265330;
const BODY = '{"test": 2432232314}';
const at = (seconds: number) => new Date(seconds * 1000);

async function headersFor(body = BODY, timestamp: number | string = TS) {
  return { "webhook-id": ID, "webhook-timestamp": String(timestamp), "webhook-signature": await signWebhook(SECRET, ID, timestamp, body) };
}

describe("Standard-Webhooks vector", () => {
  it.skipIf(!present)("reproduces the expected signature and verifies it", async () => {
    const vector = JSON.parse(readFileSync(VECTOR, "utf8")) as {
      symmetric_sign: { secret: string; msg_id: string; timestamp: number; payload: string; signed_content: string; expected_signature: string }[];
    };
    expect(vector.symmetric_sign.length).toBeGreaterThan(0);
    for (const v of vector.symmetric_sign) {
      expect(`${v.msg_id}.${v.timestamp}.${v.payload}`).toBe(v.signed_content);
      expect(await signWebhook(v.secret, v.msg_id, v.timestamp, v.payload)).toBe(v.expected_signature);
      const headers = { "webhook-id": v.msg_id, "webhook-timestamp": String(v.timestamp), "webhook-signature": v.expected_signature };
      expect(await verifyWebhook(v.secret, headers, v.payload, { now: at(v.timestamp) })).toEqual({ ok: true, id: v.msg_id, timestamp: at(v.timestamp) });
    }
  });
});

describe("signWebhook and verifyWebhook", () => {
  it("refuses an empty secret or a bare whsec_ prefix (vector negative case)", () => {
    for (const bad of ["", "whsec_", "whsec_%%%", new Uint8Array(0)]) expect(() => webhookSecretBytes(bad)).toThrow(/Webhook secret/);
    expect(webhookSecretBytes("plain")).toEqual(new TextEncoder().encode("plain"));
    expect(webhookSecretBytes(SECRET)).toHaveLength(24);
  });

  it("refuses a missing webhook-id, webhook-timestamp or webhook-signature header", async () => {
    const headers = await headersFor();
    for (const name of Object.keys(headers)) {
      const partial = { ...headers, [name]: undefined };
      expect(await verifyWebhook(SECRET, partial, BODY, { now: at(TS) }), name).toEqual({ ok: false, reason: "missing_header" });
    }
  });

  it("refuses a wrong signature, a tampered body and a different secret", async () => {
    const headers = await headersFor();
    expect(await verifyWebhook(SECRET, { ...headers, "webhook-signature": "v1,dawfeoifkpqwoekfpqoekf" }, BODY, { now: at(TS) })).toEqual({ ok: false, reason: "signature_mismatch" });
    expect(await verifyWebhook(SECRET, headers, BODY + " ", { now: at(TS) })).toEqual({ ok: false, reason: "signature_mismatch" });
    expect(await verifyWebhook("whsec_" + btoa("another secret!!"), headers, BODY, { now: at(TS) })).toEqual({ ok: false, reason: "signature_mismatch" });
  });

  it("accepts timestamps within ±300 s and refuses older or newer ones", async () => {
    const headers = await headersFor();
    expect((await verifyWebhook(SECRET, headers, BODY, { now: at(TS + 300) })).ok).toBe(true);
    expect((await verifyWebhook(SECRET, headers, BODY, { now: at(TS - 300) })).ok).toBe(true);
    expect(await verifyWebhook(SECRET, headers, BODY, { now: at(TS + 301) })).toEqual({ ok: false, reason: "timestamp_too_old" });
    expect(await verifyWebhook(SECRET, headers, BODY, { now: at(TS - 301) })).toEqual({ ok: false, reason: "timestamp_too_new" });
    expect((await verifyWebhook(SECRET, headers, BODY, { now: at(TS + 900), toleranceSec: 1000 })).ok).toBe(true);
  });

  it("accepts one valid signature among several space-separated ones", async () => {
    const headers = await headersFor();
    const several = `v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= ${headers["webhook-signature"]} v2,abc`;
    expect((await verifyWebhook(SECRET, { ...headers, "webhook-signature": several }, BODY, { now: at(TS) })).ok).toBe(true);
  });

  it("ignores signatures under other version prefixes (v1a, v2)", async () => {
    const headers = await headersFor();
    const value = headers["webhook-signature"].slice(3);
    for (const prefix of ["v1a,", "v2,", "V1,", ""]) {
      expect(await verifyWebhook(SECRET, { ...headers, "webhook-signature": prefix + value }, BODY, { now: at(TS) }), prefix).toEqual({ ok: false, reason: "signature_mismatch" });
    }
  });

  it("refuses to sign with a non-integer timestamp (vector negative case)", async () => {
    await expect(signWebhook(SECRET, ID, "161426533.0", BODY)).rejects.toThrow(/epoch seconds or RFC 3339/);
    await expect(signWebhook(SECRET, ID, 161426533.5, BODY)).rejects.toThrow(/epoch seconds or RFC 3339/);
    await expect(signWebhook(SECRET, ID, -1, BODY)).rejects.toThrow();
  });

  it("signs and verifies RFC 3339 timestamps exactly as sent in the header", async () => {
    const stamp = "2021-02-25T15:02:10Z";
    const headers = await headersFor(BODY, stamp);
    expect(await verifyWebhook(SECRET, headers, BODY, { now: at(TS) })).toEqual({ ok: true, id: ID, timestamp: at(TS) });
    // The signed content carries the header text verbatim, so an equivalent spelling does not verify.
    const respelled = { ...headers, "webhook-timestamp": "2021-02-25T17:02:10+02:00" };
    expect(await verifyWebhook(SECRET, respelled, BODY, { now: at(TS) })).toEqual({ ok: false, reason: "signature_mismatch" });
  });

  it("takes Headers objects, any header case and byte bodies", async () => {
    const headers = await headersFor();
    const h = new Headers({ "Webhook-Id": ID, "WEBHOOK-TIMESTAMP": String(TS), "webhook-signature": headers["webhook-signature"] });
    expect((await verifyWebhook(SECRET, h, new TextEncoder().encode(BODY), { now: at(TS) })).ok).toBe(true);
    expect((await verifyWebhook(SECRET, { "Webhook-Id": ID, "Webhook-Timestamp": String(TS), "Webhook-Signature": headers["webhook-signature"] }, BODY, { now: at(TS) })).ok).toBe(true);
  });
});

describe("webhook timestamps", () => {
  it.each([
    ["1614265330", 1614265330000],
    ["0", 0],
    ["2021-02-25T15:02:10Z", 1614265330000],
    ["2021-02-25t15:02:10z", 1614265330000],
    ["2021-02-25T17:02:10+02:00", 1614265330000],
    ["2021-02-25T15:02:10.250Z", 1614265330250],
  ])("parses %s", (text, ms) => expect(parseWebhookTimestamp(text)).toBe(ms));

  it.each(["", "161426533.0", "-5", "1e9", "2021-02-25", "2021-02-30T00:00:00Z", "2021-13-01T00:00:00Z", "2021-02-25T24:00:00Z", "2021-02-25 15:02:10Z", "2021-02-25T15:02:10"])(
    "rejects %j",
    (text) => expect(parseWebhookTimestamp(text)).toBeNull(),
  );

  it("formats RFC 3339 without fractional seconds", () => {
    expect(rfc3339(new Date("2026-07-01T12:00:00.789Z"))).toBe("2026-07-01T12:00:00Z");
  });
});
