import { describe, expect, it } from "vitest";
import { findPii } from "../../src/hygiene/find-pii.ts";
import { luhnValid } from "../../src/hygiene/luhn.ts";
import { redactPii } from "../../src/hygiene/redact-pii.ts";

describe("luhnValid", () => {
  it("accepts Luhn-valid numbers and rejects a changed check digit", () => {
    expect(luhnValid("4111111111111111")).toBe(true);
    expect(luhnValid("4111111111111112")).toBe(false);
    expect(luhnValid("79927398713")).toBe(true);
    expect(luhnValid("12a4")).toBe(false);
  });
});

describe("redactPii (SPEC §1 placeholder vocabulary)", () => {
  it("masks email addresses", () => {
    expect(redactPii("Write to ana.lopez+notes@mail.example.org today.")).toBe("Write to [redacted:email] today.");
  });

  it("masks phone numbers of 10 to 15 digits with the separators - ( ) . + and spaces", () => {
    expect(redactPii("Call (415) 555-0142 now")).toBe("Call [redacted:phone] now");
    expect(redactPii("Call +44 20 7946 0958.")).toBe("Call [redacted:phone].");
    expect(redactPii("Call 030.1234.5678")).toBe("Call [redacted:phone]");
    expect(redactPii("Call 4155550142")).toBe("Call [redacted:phone]");
    expect(redactPii("Call +1-415-555-0142x204")).toBe("Call [redacted:phone]");
  });

  it("leaves digit runs shorter than 10 or longer than 15 that are not cards", () => {
    expect(redactPii("Room 555-0142")).toBe("Room 555-0142");
    expect(redactPii("Order 1234567890123456")).toBe("Order 1234567890123456");
  });

  it("masks Luhn-valid card numbers of 13 to 19 digits", () => {
    expect(redactPii("Card 4111111111111111 on file")).toBe("Card [redacted:card] on file");
    expect(redactPii("Amex 378282246310005")).toBe("Amex [redacted:card]");
    expect(redactPii("Card 4111 1111 1111 1111")).toBe("Card [redacted:card]");
  });

  it("masks cards at both ends of the 13-to-19-digit range, and in hyphen groups", () => {
    expect(redactPii("Visa 4222222222222 ok")).toBe("Visa [redacted:card] ok");
    expect(redactPii("long 6011000990139420007 ok")).toBe("long [redacted:card] ok");
    expect(redactPii("Card 4111-1111-1111-1111.")).toBe("Card [redacted:card].");
    expect(redactPii("Card 6011-0009-9013-9424 exp")).toBe("Card [redacted:card] exp");
    // 12 and 20 Luhn-valid digits are not cards (12 digits is a phone-sized run, so check the kind).
    expect(findPii("n 411111111116").map((s) => s.kind)).not.toContain("card");
    expect(findPii("n 41111111111111111115").map((s) => s.kind)).toEqual([]);
  });

  // Issue 27: the card pattern swallowed the digits after a card into one run, Luhn failed, and no shorter match was tried.
  it("masks a valid card followed by a CVV, an expiry or an order number, in any grouping", () => {
    expect(redactPii("Visa 4111111111111111 123")).toBe("Visa [redacted:card] 123");
    expect(redactPii("pay 4111111111111111 12 25")).toBe("pay [redacted:card] 12 25");
    expect(redactPii("card 4111 1111 1111 1111 cvv 737")).toBe("card [redacted:card] cvv 737");
    expect(redactPii("card 4111 1111 1111 1111 737")).toBe("card [redacted:card] 737");
    expect(redactPii("card 4111-1111-1111-1111-737")).toBe("card [redacted:card]-737");
    expect(redactPii("order 12345 4111111111111111")).toBe("order 12345 [redacted:card]");
    expect(redactPii("Amex 378282246310005 0425 order 991")).toBe("Amex [redacted:card] 0425 order 991");
  });

  it("leaves a non-Luhn 16-digit run as it is", () => {
    expect(redactPii("ref 4111111111111112 end")).toBe("ref 4111111111111112 end");
  });

  it("does not eat a Luhn-valid 15-digit card as a phone", () => {
    expect(findPii("Amex 378282246310005").map((s) => s.kind)).toEqual(["card"]);
  });

  it("treats a non-Luhn 13-to-15-digit run as a phone", () => {
    expect(findPii("id 123456789012").map((s) => s.kind)).toEqual(["phone"]);
  });

  it("applies email before phone: digits inside an address are part of the email", () => {
    expect(redactPii("u4155550142@example.com")).toBe("[redacted:email]");
  });

  it("splits a whitespace-separated list of phones but not a grouped 16-digit number", () => {
    expect(redactPii("Lines: 415-555-0142 415-555-0199")).toBe("Lines: [redacted:phone] [redacted:phone]");
    expect(redactPii("1234 5678 9012 3456")).toBe("1234 5678 9012 3456");
  });

  it("does not take dates, IP addresses, decimals or ranges for phones", () => {
    for (const s of ["2024-05-12 10:30", "192.168.100.200", "0.092-0.680", "pages 12442-12448", "3.14159265358979"]) {
      expect(findPii(s), s).toEqual([]);
    }
  });

  it("does not start a phone inside an identifier", () => {
    expect(findPii("compound PF-0444991364")).toEqual([]);
  });

  it("returns text without personal data unchanged", () => {
    expect(redactPii("Nothing to see here, 42 apples.")).toBe("Nothing to see here, 42 apples.");
  });

  it("reports spans as offsets into the original text, sorted", () => {
    const text = "a@b.io then 4111111111111111 then (415) 555-0142";
    const spans = findPii(text);
    expect(spans.map((s) => [s.kind, text.slice(s.start, s.end)])).toEqual([
      ["email", "a@b.io"],
      ["card", "4111111111111111"],
      ["phone", "(415) 555-0142"],
    ]);
  });
});
