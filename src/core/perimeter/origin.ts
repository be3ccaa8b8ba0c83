/**
 * Origins as the perimeter compares them for browser writes and WebSocket handshakes. A browser
 * origin is a scheme, a host and a port; a page on `http://localhost:3000` is another origin than
 * Jig on `http://localhost:8765`, though the host name is the same. Pure: `URL` parses, nothing
 * is looked up.
 *
 * Origins are compared by host and port, the default port written out (`endpoint`); messages
 * show them as `URL.host` spells them (`authority`: the default port left out). The scheme itself
 * is not compared: behind a TLS proxy the browser says https while Jig speaks http, and one port
 * speaks one protocol, so the same host and port is the same server either way. The `Host` header
 * carries no port when it is a default one; Jig speaks plain http, so a port-less Host is port 80:
 * read in the Origin's scheme instead, `Host: devbox` would also let `https://devbox` (port 443,
 * another server) write. A TLS proxy's public name is Jig's origin through `allowed_hosts`, where a
 * port-less entry does mean the default port of the browser's scheme.
 */

export interface WebOrigin {
  scheme: 'http:' | 'https:';
  /** `URL.host`: `localhost:3000`, `jig.example` (default port left out), `[::1]:8765`. */
  authority: string;
  /** Host and port with the scheme's default port written out: `jig.example:443`. */
  endpoint: string;
}

function endpointOf(u: URL): string {
  return `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
}

/** An `Origin` or `Referer` value → its http(s) origin, or null (`null`, `file:`, garbage). */
export function webOrigin(value: string): WebOrigin | null {
  let u: URL;
  try {
    u = new URL(value.trim());
  } catch {
    return null;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.host === '') return null;
  return { scheme: u.protocol, authority: u.host, endpoint: endpointOf(u) };
}

/**
 * A `Host` header or an `allowed_hosts` entry → its authority in `scheme`, spelled as `URL.host`
 * (so a port-less name means the scheme's default port), or null when it is not a bare authority
 * (a path, user info or anything else `URL` would read past).
 */
export function authorityIn(scheme: WebOrigin['scheme'], host: string): string | null {
  return urlOf(scheme, host)?.host ?? null;
}

/** The same, as host and port with the scheme's default port written out. */
export function endpointIn(scheme: WebOrigin['scheme'], host: string): string | null {
  const u = urlOf(scheme, host);
  return u ? endpointOf(u) : null;
}

function urlOf(scheme: WebOrigin['scheme'], host: string): URL | null {
  const h = host.trim();
  if (h === '' || /[\s/?#@\\]/.test(h)) return null;
  try {
    const u = new URL(`${scheme}//${h}`);
    return u.host === '' ? null : u;
  } catch {
    return null;
  }
}

/** The browser's word for where a request comes from (Fetch Metadata); only these two pass. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

export interface OwnOrigin {
  /** The request's `Host` header. */
  host: string | undefined;
  /** `allowed_hosts` entries that also count as Jig's origin (none on a loopback bind). */
  allowedHosts: readonly string[];
}

/**
 * Why a write or a WebSocket handshake does not come from Jig's own origin, or null when it does
 * (or when nothing says where it comes from: the CLI, MCP and `curl` send no `Origin`).
 * - `Sec-Fetch-Site` must be `same-origin` or `none` when sent: `same-site` is another port or
 *   another subdomain, which is not Jig.
 * - The `Origin` (or, without one, the `Referer`) must be http(s) with the authority of the `Host`,
 *   or of an `allowed_hosts` entry (a port-less entry is the scheme's default port only).
 */
export function crossOriginReason(
  h: { origin?: string; referer?: string; 'sec-fetch-site'?: string },
  own: OwnOrigin,
): string | null {
  const site = (h['sec-fetch-site'] ?? '').trim().toLowerCase();
  if (site !== '' && !OWN_FETCH_SITES.has(site)) return `Sec-Fetch-Site is ${site}`;

  // A browser sends Origin on every write and handshake; the Referer is the fallback for one that
  // does not. An empty Referer says nothing; an empty Origin is not an origin.
  const [name, value] =
    h.origin !== undefined
      ? ['Origin', h.origin]
      : h.referer !== undefined && h.referer !== ''
        ? ['Referer', h.referer]
        : [null, null];
  if (name === null) return null;
  const origin = webOrigin(value);
  if (origin === null) return `${name} ${JSON.stringify(value)} is not an http or https origin`;

  // Jig speaks http: a port-less Host is port 80, whatever the Origin's scheme.
  const ownEndpoint = own.host === undefined ? null : endpointIn('http:', own.host);
  if (ownEndpoint === origin.endpoint) return null;
  if (own.allowedHosts.some((entry) => endpointIn(origin.scheme, entry) === origin.endpoint)) return null;
  const ownAuthority = own.host === undefined ? null : authorityIn('http:', own.host);
  // Two spellings that read alike (`jig.example` on 443 and on 80) are told apart by their ports.
  const [theirs, ours] =
    ownAuthority === origin.authority
      ? [origin.endpoint, ownEndpoint ?? 'the Host']
      : [origin.authority, ownAuthority ?? 'the Host'];
  const also = own.allowedHosts.length > 0 ? ' or an allowed_hosts entry' : '';
  return `${name} is ${theirs}, not ${ours}${also}`;
}
