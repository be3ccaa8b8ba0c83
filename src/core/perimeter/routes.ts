import { login, loginPage, logout } from '../../contract/routes/auth.js';
import { fileTrigger } from '../../contract/routes/triggers.js';

/** Paths the perimeter treats specially, from the same route descriptions the server registers. */
export const LOGIN_PAGE_PATH = loginPage.path;
export const LOGIN_PATH = login.path;
export const LOGOUT_PATH = logout.path;
export const TRIGGERS_PATH = fileTrigger.path;

/**
 * - `open`: needs no login on any bind (spec: health, the schema and its two viewers).
 * - `login`: the login page and the login/logout calls, which must be reachable without a login.
 * - `trigger`: `POST /api/triggers`, where the trigger token is also accepted.
 * - `guarded`: everything else, including paths no route answers (so a 404 tells nothing).
 */
export type RouteClass = 'open' | 'login' | 'trigger' | 'guarded';

const OPEN_EXACT = new Set(['/api/health', '/openapi.json', '/docs', '/redoc']);
// The viewers' own files (`/docs/init.js`) belong to the viewers.
const OPEN_PREFIXES = ['/docs/', '/redoc/'];

/**
 * `path` is the matched route's pattern when a route matched (so percent-encoding cannot make a
 * guarded route look open), else the request path without its query.
 */
export function classifyRoute(method: string, path: string): RouteClass {
  const m = method.toUpperCase();
  if (OPEN_EXACT.has(path) || OPEN_PREFIXES.some((p) => path.startsWith(p))) return 'open';
  if ((m === 'GET' || m === 'HEAD') && path === LOGIN_PAGE_PATH) return 'login';
  if (m === 'POST' && (path === LOGIN_PATH || path === LOGOUT_PATH)) return 'login';
  if (m === 'POST' && path === TRIGGERS_PATH) return 'trigger';
  return 'guarded';
}

export function isApiPath(path: string): boolean {
  return path === '/api' || path.startsWith('/api/');
}
