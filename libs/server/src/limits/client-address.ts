import { isIPv4, isIPv6 } from 'node:net';

/**
 * The key that one client's requests are counted under: its IPv4 address, or the /64 network of its
 * IPv6 address. A /64 is one subscriber's whole allocation. Without this, each of its 2^64
 * addresses would be a new client with a fresh allowance, and a new entry in the limiter's memory.
 */
export function clientKey(ip: string | undefined): string {
  return clientKeys(ip)[0];
}

/**
 * Every key that a client's request counts against. An IPv4 address has one key. An IPv6 address has
 * two: its /64, and its /48, which is a site's usual allocation. A /48 holds 65,536 /64s, which one
 * holder could otherwise use as 65,536 clients.
 */
export function clientKeys(ip: string | undefined): string[] {
  if (!ip) return ['unknown'];
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped && isIPv4(mapped[1])) return [mapped[1]];
  if (isIPv4(ip)) return [ip];
  // A zone (`fe80::1%eth0`) names the interface, not the client.
  const address = ip.split('%')[0];
  if (!isIPv6(address)) return ['unknown'];
  const g = groups(address);
  return [`${g.slice(0, 4).join(':')}::/64`, `${g.slice(0, 3).join(':')}::/48`];
}

/** The eight 16-bit groups of an IPv6 address, `::` expanded, without leading zeros. */
function groups(address: string): string[] {
  const [head, tail] = address.includes('::') ? address.split('::') : [address, undefined];
  const split = (part: string | undefined) => (part ? part.split(':') : []);
  let left = split(head);
  let right = split(tail);
  // An embedded IPv4 tail (`64:ff9b::192.0.2.1`) is two groups.
  const last = (right.length ? right : left).at(-1);
  if (last && isIPv4(last)) {
    const [a, b, c, d] = last.split('.').map(Number);
    const asGroups = [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)];
    if (right.length) right = [...right.slice(0, -1), ...asGroups];
    else left = [...left.slice(0, -1), ...asGroups];
  }
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16).toString(16));
}
