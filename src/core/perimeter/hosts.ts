/**
 * Names and addresses as the perimeter compares them. Pure: the board can use the same rules.
 * The Host rules compare names lowercased and without the port (they stop DNS rebinding, which
 * changes the name; the port is whichever one the connection reached). IPv6 literals keep their
 * brackets (`[::1]`). Origins, where the port does count, are in origin.ts.
 */

/** The three names a loopback-bound server answers to (spec: Authentication). */
export const LOOPBACK_NAMES: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

/** `Host` header (or an allowed_hosts entry) → the name without its port; '' when absent. */
export function hostName(host: string | undefined): string {
  if (host === undefined) return '';
  const h = host.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end === -1 ? h : h.slice(0, end + 1);
  }
  const colon = h.indexOf(':');
  // One colon is `name:port`; more than one is a bare IPv6 literal, which a Host cannot carry.
  if (colon !== -1 && colon === h.lastIndexOf(':')) return h.slice(0, colon);
  return h;
}

export function isLoopbackName(name: string): boolean {
  return LOOPBACK_NAMES.includes(name);
}

/** An address the server may listen on; `localhost` counts, since it resolves to loopback. */
export function isLoopbackBind(bind: string): boolean {
  const b = bind
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  return b === 'localhost' || b === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(b);
}

/** A peer address as the socket reports it (IPv4, IPv6, or IPv4-mapped IPv6). */
export function isLoopbackAddress(address: string): boolean {
  const a = address.trim().toLowerCase();
  if (a === '::1' || a === '0:0:0:0:0:0:0:1') return true;
  const v4 = a.startsWith('::ffff:') ? a.slice('::ffff:'.length) : a;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}
