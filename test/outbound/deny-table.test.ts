import { describe, expect, it } from "vitest";
import { isForbiddenAddress, isLoopbackAddress, parseIpv6 } from "../../src/outbound/deny-table.ts";

// One row per range: [range, addresses inside it (forbidden), neighbours just outside (allowed)].
const IPV4: [string, string[], string[]][] = [
  ["0.0.0.0/8 this network", ["0.0.0.0", "0.255.255.255"], ["1.0.0.0"]],
  ["10.0.0.0/8 private", ["10.0.0.1", "10.255.255.255"], ["9.255.255.255", "11.0.0.0"]],
  ["100.64.0.0/10 CGNAT", ["100.64.0.0", "100.127.255.255"], ["100.63.255.255", "100.128.0.0"]],
  ["127.0.0.0/8 loopback", ["127.0.0.1", "127.255.255.254"], ["128.0.0.1", "126.255.255.255"]],
  ["169.254.0.0/16 link-local", ["169.254.169.254", "169.254.0.1"], ["169.253.255.255", "169.255.0.0"]],
  ["172.16.0.0/12 private", ["172.16.0.1", "172.31.255.255"], ["172.15.255.255", "172.32.0.0"]],
  ["192.0.0.0/24 IETF assignments", ["192.0.0.8"], ["192.0.1.1"]],
  ["192.0.2.0/24 TEST-NET-1", ["192.0.2.10"], ["192.0.3.1"]],
  ["192.88.99.0/24 6to4 relay", ["192.88.99.1"], ["192.88.98.1"]],
  ["192.168.0.0/16 private", ["192.168.1.1", "192.168.255.255"], ["192.167.255.255", "192.169.0.0"]],
  ["198.18.0.0/15 benchmarking", ["198.18.0.1", "198.19.255.255"], ["198.17.255.255", "198.20.0.0"]],
  ["198.51.100.0/24 TEST-NET-2", ["198.51.100.7"], ["198.51.101.7"]],
  ["203.0.113.0/24 TEST-NET-3", ["203.0.113.9"], ["203.0.114.9"]],
  ["224.0.0.0/4 multicast", ["224.0.0.1", "239.255.255.250"], ["223.255.255.255"]],
  ["240.0.0.0/4 reserved", ["240.0.0.1", "250.1.2.3"], []],
  ["255.255.255.255 broadcast", ["255.255.255.255"], []],
];

const IPV6: [string, string[], string[]][] = [
  ["::1 loopback", ["::1", "[::1]", "0:0:0:0:0:0:0:1"], []],
  [":: unspecified", ["::", "0::0"], []],
  ["fc00::/7 unique local", ["fc00::1", "fd12:3456:789a::1"], []],
  ["fe80::/10 link-local", ["fe80::1", "fe80::1%eth0", "febf::1"], []],
  ["fec0::/10 site-local (deprecated)", ["fec0::1"], []],
  ["ff00::/8 multicast", ["ff02::1", "ff0e::101"], []],
  ["::ffff:0:0/96 IPv4-mapped", ["::ffff:127.0.0.1", "::ffff:7f00:1", "::ffff:10.0.0.1", "::ffff:169.254.169.254"], ["::ffff:8.8.8.8", "::ffff:808:808"]],
  ["::/96 IPv4-compatible", ["::127.0.0.1", "::10.1.2.3", "::192.168.0.1", "::a00:1"], ["::8.8.8.8"]],
  ["::ffff:0:0:0/96 SIIT", ["::ffff:0:10.0.0.1"], ["::ffff:0:8.8.8.8"]],
  ["64:ff9b::/96 NAT64", ["64:ff9b::10.0.0.1", "64:ff9b::7f00:1", "64:ff9b::a9fe:a9fe"], ["64:ff9b::8.8.8.8", "64:ff9b::808:808"]],
  ["64:ff9b:1::/48 local NAT64", ["64:ff9b:1::8.8.8.8"], []],
  ["2002::/16 6to4", ["2002:c0a8:0101::1", "2002:7f00:1::"], ["2002:0808:0808::1"]],
  ["2001::/32 Teredo and 2001::/23 IETF", ["2001::1", "2001:0:4136:e378::1", "2001:10::1"], ["2001:200::1"]],
  ["2001:db8::/32 documentation", ["2001:db8::1", "2001:db8:ffff::"], ["2001:db9::1"]],
  ["3fff::/20 documentation", ["3fff::1"], ["3ffe::1"]],
  ["outside 2000::/3 (reserved)", ["100::1", "4000::1", "e000::1", "1::"], ["2606:4700:4700::1111", "2a00:1450:4001::200e"]],
];

describe("isForbiddenAddress", () => {
  for (const [name, inside, outside] of [...IPV4, ...IPV6]) {
    it(`forbids ${name}${outside.length ? " and allows its neighbours" : ""}`, () => {
      for (const ip of inside) expect(isForbiddenAddress(ip), ip).toBe(true);
      for (const ip of outside) expect(isForbiddenAddress(ip), ip).toBe(false);
    });
  }

  it("allows ordinary public addresses", () => {
    for (const ip of ["8.8.8.8", "1.1.1.1", "93.184.216.34", "2606:4700:4700::1111", "2001:4860:4860::8888"]) expect(isForbiddenAddress(ip), ip).toBe(false);
  });

  it("fails closed on anything that is not a canonical IP literal", () => {
    for (const bad of ["", "localhost", "example.com", "1.2.3", "1.2.3.4.5", "010.0.0.1", "0x7f.0.0.1", "2130706433", "256.1.1.1", "::g", "1:2:3:4:5:6:7:8:9", "1::2::3", "::1.2.3.4:5", "1.2.3.4::"]) {
      expect(isForbiddenAddress(bad), bad).toBe(true);
    }
  });
});

describe("parseIpv6 and isLoopbackAddress", () => {
  it("expands compressed forms and embedded dotted quads", () => {
    expect(Buffer.from(parseIpv6("2001:db8::1")!).toString("hex")).toBe("20010db8000000000000000000000001");
    expect(Buffer.from(parseIpv6("::ffff:1.2.3.4")!).toString("hex")).toBe("00000000000000000000ffff01020304");
    expect(Buffer.from(parseIpv6("1:2:3:4:5:6:7:8")!).toString("hex")).toBe("00010002000300040005000600070008");
    expect(parseIpv6("1:2:3:4:5:6:7::8")).toBeNull(); // :: must stand for at least one group
  });

  it("recognises loopback in every spelling", () => {
    for (const ip of ["127.0.0.1", "127.9.9.9", "::1", "[::1]", "::ffff:127.0.0.1"]) expect(isLoopbackAddress(ip), ip).toBe(true);
    for (const ip of ["10.0.0.1", "::", "::2", "8.8.8.8", "localhost"]) expect(isLoopbackAddress(ip), ip).toBe(false);
  });
});
