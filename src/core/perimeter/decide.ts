import { JigError, type ErrorParams } from '../../contract/errors.js';
import { hostName, isLoopbackAddress, isLoopbackBind, isLoopbackName } from './hosts.js';
import { crossOriginReason } from './origin.js';
import { classifyRoute, isApiPath, TRIGGERS_PATH } from './routes.js';

/** The request headers the perimeter reads (lowercase names, as Node gives them). */
export interface PerimeterHeaders {
  host?: string;
  origin?: string;
  referer?: string;
  'sec-fetch-site'?: string;
  accept?: string;
  upgrade?: string;
}

/**
 * What the caller presented, already checked by the runtime (token comparison and session lookup
 * need I/O, so they happen before this pure function; it only weighs the outcome).
 */
export interface PresentedCredentials {
  /** `Authorization: Bearer …` matched the MCP token, the trigger token, neither, or was not sent. */
  bearer: 'mcp' | 'trigger' | 'invalid' | null;
  /** The session cookie named a live session, an expired one, an unknown one, or was not sent. */
  session: 'valid' | 'expired' | 'invalid' | null;
}

export interface PerimeterInput {
  /** The address the server listens on (not the config file's: the one in force). */
  bind: string;
  /** `access.yaml` `allowed_hosts` (applies off loopback only). */
  allowedHosts: readonly string[];
  /** Whether `access.yaml` has a password hash. */
  passwordSet: boolean;
  /** The socket's peer address; proxy headers are never trusted for it. */
  peer: string;
  method: string;
  /** The matched route's pattern, or the path without its query when no route matched. */
  path: string;
  headers: PerimeterHeaders;
  credentials: PresentedCredentials;
}

/** Who got through, for routes that care (the trigger token may file paused work and nothing else). */
export type Caller = 'open' | 'loopback' | 'mcp' | 'session' | 'trigger' | 'login';

/** The refusals the perimeter answers with. */
type PerimeterCode = 'host_not_allowed' | 'cross_site_write' | 'remote_needs_password' | 'login_required';

type RefusalOf<C extends PerimeterCode> = {
  allow: false;
  status: 401 | 403;
  code: C;
  params: ErrorParams<C>;
  /** Extra keys of the JSON body. */
  extra: Record<string, string>;
  /** Answer with a short HTML page rather than JSON (a browser GET outside /api wanting HTML). */
  html: boolean;
};

export type Refusal = { [C in PerimeterCode]: RefusalOf<C> }[PerimeterCode];

export type Decision = { allow: true; caller: Caller } | Refusal;

/** The catalogue's error for a refusal (the switch lets the compiler match each code's params). */
export function refusalError(d: Refusal): JigError {
  switch (d.code) {
    case 'host_not_allowed':
      return new JigError(d.code, d.params, d.extra);
    case 'cross_site_write':
      return new JigError(d.code, d.params, d.extra);
    case 'remote_needs_password':
      return new JigError(d.code, d.params, d.extra);
    case 'login_required':
      return new JigError(d.code, d.params, d.extra);
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function acceptsHtml(h: PerimeterHeaders): boolean {
  return (h.accept ?? '').toLowerCase().includes('text/html');
}

/** Spec: a browser sends `Sec-Fetch-Site`, `Origin`, `Referer`, or an HTML `Accept`. */
export function fromBrowser(h: PerimeterHeaders): boolean {
  return (
    h['sec-fetch-site'] !== undefined ||
    h.origin !== undefined ||
    (h.referer !== undefined && h.referer !== '') ||
    acceptsHtml(h)
  );
}

function unauthenticatedReason(c: PresentedCredentials): string {
  if (c.bearer === 'trigger') return `the trigger token is valid on POST ${TRIGGERS_PATH} only`;
  if (c.bearer === 'invalid') return 'the bearer token is not valid (it may have been rotated)';
  if (c.session === 'expired') return 'the session has expired; log in again at /login';
  if (c.session === 'invalid') return 'the session is not valid; log in again at /login';
  return 'log in at /login, or send the MCP token (run/mcp-token) as Authorization: Bearer <token>';
}

/**
 * The whole perimeter (spec: Authentication), as one pure decision per request. Order matters:
 * 1. Host rules, on every route (health and webhooks included);
 * 2. writes and WebSocket handshakes from another origin than Jig's own, on every route;
 * 3. open routes; a loopback bind needs nothing more;
 * 4. off loopback: a remote peer needs a password to be set, whatever it presents;
 * 5. then a credential valid for the route, or the login routes; else 401.
 */
export function decide(input: PerimeterInput): Decision {
  const { headers: h, credentials: c } = input;
  const method = input.method.toUpperCase();
  const host = hostName(h.host);
  const loopbackBind = isLoopbackBind(input.bind);
  const html = (method === 'GET' || method === 'HEAD') && !isApiPath(input.path) && acceptsHtml(h);
  const refuse = <C extends PerimeterCode>(
    status: 401 | 403,
    code: C,
    params: ErrorParams<C>,
    extra: Record<string, string> = {},
  ): RefusalOf<C> => ({ allow: false, status, code, params, extra, html });

  const allowed = input.allowedHosts.map(hostName);
  const hostOk = loopbackBind
    ? isLoopbackName(host)
    : !fromBrowser(h) || isLoopbackName(host) || allowed.includes(host);
  if (!hostOk) return refuse(403, 'host_not_allowed', { bind: input.bind }, { host: h.host ?? '' });

  // Any upgrade counts as a handshake: a browser can only start a WebSocket one, and a caller
  // without an Origin passes anyway.
  const upgrade = (h.upgrade ?? '').trim() !== '';
  if (!SAFE_METHODS.has(method) || upgrade) {
    const reason = crossOriginReason(h, {
      host: h.host,
      // Like the Host rule, allowed_hosts applies off loopback only.
      allowedHosts: loopbackBind ? [] : input.allowedHosts,
    });
    if (reason !== null) return refuse(403, 'cross_site_write', { reason });
  }

  const route = classifyRoute(method, input.path);
  if (route === 'open') return { allow: true, caller: 'open' };
  if (loopbackBind) return { allow: true, caller: 'loopback' };

  if (!isLoopbackAddress(input.peer) && !input.passwordSet) return refuse(403, 'remote_needs_password', {});

  if (c.bearer === 'mcp') return { allow: true, caller: 'mcp' };
  if (c.session === 'valid') return { allow: true, caller: 'session' };
  if (c.bearer === 'trigger' && route === 'trigger') return { allow: true, caller: 'trigger' };
  if (route === 'login') return { allow: true, caller: 'login' };
  return refuse(401, 'login_required', { reason: unauthenticatedReason(c) });
}
