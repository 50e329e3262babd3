import { describe, expect, it } from "vitest";
import { addressRange, plainAddress } from "./address-range";

describe("the range of a client address", () => {
  it("an IPv4 address: its /24", () => {
    expect(addressRange("203.0.113.7")).toBe("203.0.113.0/24");
    expect(addressRange("203.0.113.255")).toBe("203.0.113.0/24");
    expect(addressRange("203.0.114.1")).toBe("203.0.114.0/24");
  });

  it("an IPv6 address: its /64, whatever its writing", () => {
    expect(addressRange("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressRange("2001:0db8:0001:0002::6")).toBe("2001:db8:1:2::/64");
    expect(addressRange("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressRange("[2001:db8:1:2::9]")).toBe("2001:db8:1:2::/64");
    expect(addressRange("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressRange("::1")).toBe("0:0:0:0::/64");
  });

  it("an IPv4 client seen through an IPv6 socket is the IPv4 one", () => {
    expect(addressRange("::ffff:198.51.100.23")).toBe("198.51.100.0/24");
    expect(addressRange("::FFFF:c633:6417")).toBe("198.51.100.0/24");
    expect(plainAddress("::ffff:198.51.100.23")).toBe("198.51.100.23");
    expect(plainAddress("2001:db8::1")).toBe("2001:db8::1");
  });

  it("no range for what is not an address", () => {
    for (const bad of [
      "unknown",
      "",
      null,
      undefined,
      "1.2.3",
      "300.1.1.1",
      "2001:db8::1::2",
      "g::1",
      "1:2:3:4:5:6:7:8:9",
    ])
      expect(addressRange(bad), String(bad)).toBeNull();
  });
});
