/**
 * The range a client address belongs to, as the integrity desk groups addresses: an IPv4 address's /24
 * ("203.0.113.0/24"), an IPv6 address's /64 ("2001:db8:1:2::/64"; an IPv4 address written as IPv6,
 * ::ffff:203.0.113.7, is the IPv4 one). Anything that is not an address has no range.
 */
import { isIPv4, isIPv6 } from "node:net";

/** An IPv6 address's eight groups as numbers (the "::" filled in), or null. */
function ipv6Groups(address: string): number[] | null {
  const [head, tail, ...more] = address.split("::");
  if (more.length) return null;
  const part = (s: string | undefined) => (s ? s.split(":") : []);
  let left = part(head);
  let right = part(tail);
  // An embedded IPv4 address at the end counts as two groups.
  const last = (tail === undefined ? left : right).at(-1);
  if (last && isIPv4(last)) {
    const [a, b, c, d] = last.split(".").map(Number);
    const groups = [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    if (tail === undefined) left = [...left.slice(0, -1), ...groups];
    else right = [...right.slice(0, -1), ...groups];
  }
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const groups = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...right].map((g) =>
    Number.parseInt(g, 16),
  );
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** The address's range, or null when it is not an IP address (an unknown client). */
export function addressRange(raw: string | null | undefined): string | null {
  const address = (raw ?? "")
    .trim()
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "");
  if (isIPv4(address)) return `${address.split(".").slice(0, 3).join(".")}.0/24`;
  if (!isIPv6(address)) return null;
  const groups = ipv6Groups(address);
  if (!groups) return null;
  // ::ffff:a.b.c.d is an IPv4 client seen through an IPv6 socket.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return `${groups[6] >> 8}.${groups[6] & 255}.${groups[7] >> 8}.0/24`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(":")}::/64`;
}

/** The address as the desk keeps it: an IPv4 client seen through an IPv6 socket written as IPv4. */
export function plainAddress(raw: string): string {
  const address = raw.trim();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped && isIPv4(mapped[1]) ? mapped[1] : address;
}
