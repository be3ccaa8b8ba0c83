/**
 * Which hosts a sandboxed task may reach through its egress proxy (docs/sandbox.md). An entry is
 * `host` (ports 80 and 443: the web, nothing else), `host:port`, `*.domain` (any name below the
 * domain, not the domain itself) or an address (`127.0.0.1:8080`, `[::1]:8080`). Names compare
 * without case and without a trailing dot. Deny entries win over allow entries.
 */

export interface EgressLists {
  allow: readonly string[];
  deny: readonly string[];
}

interface Entry {
  /** The name or address, lower case; for a wildcard the domain after `*.`. */
  host: string;
  wildcard: boolean;
  /** null: ports 80 and 443. */
  port: number | null;
}

const WEB_PORTS = [80, 443];

const clean = (host: string): string =>
  host
    .trim()
    .toLowerCase()
    .replace(/\.$/, '')
    .replace(/^\[|\]$/g, '');

/** An entry as written, or null when it cannot name a host (a problem the config check reports). */
export function parseEgressEntry(text: string): Entry | null {
  const t = text.trim();
  let host = t;
  let port: number | null = null;
  const bracket = /^\[([^\]]+)\](?::(\d+))?$/.exec(t);
  if (bracket) {
    host = bracket[1] ?? '';
    port = bracket[2] !== undefined ? Number(bracket[2]) : null;
  } else if ((t.match(/:/g) ?? []).length === 1) {
    const [h = '', p = ''] = t.split(':');
    if (!/^\d+$/.test(p)) return null;
    host = h;
    port = Number(p);
  }
  if (port !== null && (port < 1 || port > 65535)) return null;
  const wildcard = host.startsWith('*.');
  if (wildcard) host = host.slice(2);
  host = clean(host);
  if (host === '' || /[\s/*@]/.test(host)) return null;
  return { host, wildcard, port };
}

function matches(e: Entry, host: string, port: number): boolean {
  const portOk = e.port === null ? WEB_PORTS.includes(port) : e.port === port;
  if (!portOk) return false;
  return e.wildcard ? host.endsWith(`.${e.host}`) : host === e.host;
}

export type EgressVerdict = { ok: true } | { ok: false; reason: string };

/** Whether the lists let a task reach `host:port` (by name; addresses are checked after resolving). */
export function egressVerdict(lists: EgressLists, host: string, port: number): EgressVerdict {
  const h = clean(host);
  const hit = (list: readonly string[]) =>
    list.map(parseEgressEntry).find((e): e is Entry => e !== null && matches(e, h, port));
  const denied = hit(lists.deny);
  if (denied) return { ok: false, reason: 'denied by the sandbox network deny list' };
  if (!hit(lists.allow)) return { ok: false, reason: 'not in the sandbox network allow list' };
  return { ok: true };
}

/**
 * Whether an allow entry names this exact address and port: the only way a task reaches a
 * loopback, private, link-local or metadata address (a name that resolves there is refused).
 */
export function addressNamed(lists: EgressLists, address: string, port: number): boolean {
  const a = clean(address);
  return lists.allow
    .map(parseEgressEntry)
    .some((e) => e !== null && !e.wildcard && e.port === port && e.host === a);
}
