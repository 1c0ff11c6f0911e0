/**
 * The egress deny table (SPEC §5 item 12): addresses an outbound client must
 * never connect to. IPv4: this-network, private, CGNAT, loopback, link-local,
 * IETF/documentation/benchmarking blocks, multicast, reserved and broadcast.
 * IPv6: only global unicast (2000::/3) is allowed, minus documentation, Teredo
 * and the other IETF-assigned blocks; addresses that embed an IPv4 address
 * (IPv4-mapped ::ffff:0:0/96, IPv4-compatible ::/96, SIIT ::ffff:0:0:0/96, NAT64
 * 64:ff9b::/96, 6to4 2002::/16) are judged by the embedded IPv4 address.
 * Anything that is not a well-formed IP literal is treated as forbidden.
 */

type Cidr = [bytes: number[], bits: number];

// IANA IPv4 Special-Purpose Address Registry entries that are not globally reachable, plus multicast.
const V4_DENY: Cidr[] = [
  [[0, 0, 0, 0], 8], // "this network"
  [[10, 0, 0, 0], 8], // private
  [[100, 64, 0, 0], 10], // CGNAT shared address space
  [[127, 0, 0, 0], 8], // loopback
  [[169, 254, 0, 0], 16], // link-local (cloud metadata lives here)
  [[172, 16, 0, 0], 12], // private
  [[192, 0, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2, 0], 24], // TEST-NET-1
  [[192, 88, 99, 0], 24], // 6to4 relay anycast (deprecated)
  [[192, 168, 0, 0], 16], // private
  [[198, 18, 0, 0], 15], // benchmarking
  [[198, 51, 100, 0], 24], // TEST-NET-2
  [[203, 0, 113, 0], 24], // TEST-NET-3
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved, including 255.255.255.255 broadcast
];

// Blocks inside global unicast 2000::/3 that are not reachable destinations.
const V6_DENY_IN_GLOBAL: Cidr[] = [
  [[0x20, 0x01, 0x00, 0x00], 23], // IETF protocol assignments, incl. Teredo 2001::/32 and ORCHID
  [[0x20, 0x01, 0x0d, 0xb8], 32], // documentation
  [[0x3f, 0xff, 0x00, 0x00], 20], // documentation (RFC 9637)
];

/** Parses a dotted-quad IPv4 literal (no leading zeros); `null` otherwise. */
export function parseIpv4(text: string): Uint8Array | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return null;
  const parts = m.slice(1).map((p) => (p.length > 1 && p.startsWith("0") ? 256 : Number(p)));
  return parts.every((n) => n <= 255) ? Uint8Array.from(parts) : null;
}

/** Parses an IPv6 literal (brackets and a `%zone` suffix allowed, embedded dotted quad allowed); `null` otherwise. */
export function parseIpv6(text: string): Uint8Array | null {
  let s = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  if (!/^[0-9A-Fa-f:.]+$/.test(s)) return null;
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const head = groups(halves[0]!, halves.length === 1);
  const tail = halves.length === 2 ? groups(halves[1]!, true) : [];
  if (!head || !tail) return null;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const all = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return Uint8Array.from(all.flatMap((g) => [g >> 8, g & 0xff]));
}

/** True for loopback addresses (127/8, ::1, and IPv4-mapped/compatible forms of 127/8). */
export function isLoopbackAddress(ip: string): boolean {
  const v6 = parseIpv6(ip);
  if (v6 && v6.every((b, i) => b === (i === 15 ? 1 : 0))) return true; // ::1
  const v4 = parseIpv4(ip) ?? embeddedIpv4(v6);
  return v4 !== null && v4[0] === 127;
}

/** True when an outbound client must refuse to connect to `ip` (also for anything that is not an IP literal). */
export function isForbiddenAddress(ip: string): boolean {
  const v4 = parseIpv4(ip);
  if (v4) return V4_DENY.some((cidr) => inCidr(v4, cidr));
  const v6 = parseIpv6(ip);
  if (!v6) return true;
  const embedded = embeddedIpv4(v6);
  if (embedded) return V4_DENY.some((cidr) => inCidr(embedded, cidr));
  if ((v6[0]! & 0xe0) !== 0x20) return true; // outside 2000::/3: loopback, ULA, link-local, multicast, reserved
  return V6_DENY_IN_GLOBAL.some((cidr) => inCidr(v6, cidr));
}

function groups(part: string, v4AllowedAtEnd: boolean): number[] | null {
  if (part === "") return [];
  const out: number[] = [];
  const items = part.split(":");
  for (const [i, item] of items.entries()) {
    if (item.includes(".")) {
      const v4 = i === items.length - 1 && v4AllowedAtEnd ? parseIpv4(item) : null;
      if (!v4) return null;
      out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    } else {
      if (!/^[0-9A-Fa-f]{1,4}$/.test(item)) return null;
      out.push(parseInt(item, 16));
    }
  }
  return out;
}

// The IPv4 address carried by an IPv6 address of a translation or transition form, if any.
function embeddedIpv4(v6: Uint8Array | null): Uint8Array | null {
  if (!v6) return null;
  const zeros = (from: number, to: number) => v6.slice(from, to).every((b) => b === 0);
  const last4 = v6.slice(12, 16);
  if (zeros(0, 10) && v6[10] === 0xff && v6[11] === 0xff) return last4; // ::ffff:0:0/96 mapped
  if (zeros(0, 8) && v6[8] === 0xff && v6[9] === 0xff && zeros(10, 12)) return last4; // ::ffff:0:0:0/96 SIIT
  if (zeros(0, 12)) return last4; // ::/96 IPv4-compatible (covers :: and ::1 as 0.0.0.0 and 0.0.0.1)
  if (v6[0] === 0x00 && v6[1] === 0x64 && v6[2] === 0xff && v6[3] === 0x9b && zeros(4, 12)) return last4; // 64:ff9b::/96 NAT64
  if (v6[0] === 0x20 && v6[1] === 0x02) return v6.slice(2, 6); // 2002::/16 6to4
  return null;
}

function inCidr(bytes: Uint8Array, [prefix, bits]: Cidr): boolean {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if (((bytes[byte] ?? 0) & mask) !== ((prefix[byte] ?? 0) & mask)) return false;
  }
  return true;
}
