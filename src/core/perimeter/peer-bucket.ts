/**
 * The address range one peer stands for, so that limits per peer (failed logins) count a range
 * rather than one exact address. A host given an IPv6 network usually holds a whole /64 and can
 * pick a fresh address per try, so an IPv6 address counts as its /64. Every loopback address
 * (127.0.0.0/8, ::1, and their IPv4-mapped forms) is this machine, so all of them are one range.
 * An IPv4 address counts alone. Pure: it parses the text the socket reports, no lookups.
 */

/** The bucket of every loopback address. */
export const LOOPBACK_BUCKET = 'loopback';

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** Dotted IPv4 → its four octets, or null when it is not one (leading zeros are refused). */
function ipv4Octets(text: string): number[] | null {
  const m = IPV4.exec(text);
  if (!m) return null;
  const octets = m.slice(1).map((p) => (p.length > 1 && p.startsWith('0') ? NaN : Number(p)));
  return octets.every((o) => Number.isInteger(o) && o <= 255) ? octets : null;
}

function hex(group: number): string {
  return group.toString(16);
}

/**
 * IPv6 text (full or `::`-compressed, a dotted IPv4 tail allowed) → its eight 16-bit groups, or
 * null when it is not one.
 */
function ipv6Groups(text: string): number[] | null {
  let t = text;
  const lastColon = t.lastIndexOf(':');
  if (lastColon !== -1 && t.includes('.', lastColon)) {
    // A dotted IPv4 tail is the last two groups, written another way.
    const v4 = ipv4Octets(t.slice(lastColon + 1));
    if (v4 === null) return null;
    t = `${t.slice(0, lastColon + 1)}${hex((v4[0]! << 8) | v4[1]!)}:${hex((v4[2]! << 8) | v4[3]!)}`;
  }
  const halves = t.split('::');
  if (halves.length > 2) return null;
  const groups = (s: string): number[] | null => {
    if (s === '') return [];
    const out: number[] = [];
    for (const g of s.split(':')) {
      if (!/^[0-9a-f]{1,4}$/.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const left = groups(halves[0]!);
  const right = halves.length === 2 ? groups(halves[1]!) : [];
  if (left === null || right === null) return null;
  const given = left.length + right.length;
  // `::` stands for at least one zero group; without it all eight must be written.
  if (halves.length === 2 ? given > 7 : given !== 8) return null;
  return [...left, ...new Array<number>(8 - given).fill(0), ...right];
}

/**
 * The rate-limit bucket of a peer address as the socket reports it: `loopback` for any loopback
 * address, the dotted address for IPv4 (IPv4-mapped IPv6 included), `<first four groups>::/64`
 * for IPv6 (a zone such as `%eth0` dropped), and the trimmed, lowercased text for anything that is
 * not an address (so it still counts, on its own).
 */
export function peerBucket(address: string): string {
  let a = address.trim().toLowerCase();
  if (a.startsWith('[') && a.endsWith(']')) a = a.slice(1, -1);
  const zone = a.indexOf('%');
  if (zone !== -1) a = a.slice(0, zone);

  const v4 = ipv4Octets(a);
  if (v4 !== null) return v4[0] === 127 ? LOOPBACK_BUCKET : v4.join('.');

  const g = ipv6Groups(a);
  if (g === null) return address.trim().toLowerCase();
  // ::ffff:a.b.c.d is how a dual-stack socket reports an IPv4 peer: it is that IPv4 address.
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) {
    const mapped = [g[6]! >> 8, g[6]! & 0xff, g[7]! >> 8, g[7]! & 0xff];
    return mapped[0] === 127 ? LOOPBACK_BUCKET : mapped.join('.');
  }
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return LOOPBACK_BUCKET;
  return `${g.slice(0, 4).map(hex).join(':')}::/64`;
}
