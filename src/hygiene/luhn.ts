/**
 * The Luhn checksum used by the card placeholder rule (SPEC §1 "Input
 * hygiene": `[redacted:card]` covers Luhn-valid runs of 13 to 19 digits).
 */

/** True when the digit string passes the Luhn (mod 10) check. Non-digits make it false. */
export function luhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
