import { hostname } from 'node:os';

/* Where this process keeps its state and where the others reach it: read from options, the
 * environment and access.yaml, checked before anything starts. */

/**
 * Where the store is: `JIG_DATABASE_URL`, else access.yaml `database:`, else the SQLite file in
 * run/ (docs/scale-out.md). A variable that names no PostgreSQL database is refused at start
 * rather than taken for a file name.
 */
export function storeTarget(env: NodeJS.ProcessEnv, configured: string | undefined, file: string): string {
  const url = env.JIG_DATABASE_URL?.trim();
  if (url) {
    if (!/^postgres(ql)?:\/\//i.test(url))
      throw new Error(
        'JIG_DATABASE_URL is not a PostgreSQL URL (postgres://user@host:5432/jig); unset it to use SQLite',
      );
    return url;
  }
  return configured ?? file;
}

/** `--advertise` (or JIG_ADVERTISE_URL) checked before anything starts: an http(s) origin. */
export function parseAdvertise(told: string | undefined): string | null {
  const given = told?.trim();
  if (!given) return null;
  let u: URL | null = null;
  try {
    u = new URL(given);
  } catch {
    u = null;
  }
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:'))
    throw new Error(`--advertise takes an http(s) URL such as http://build-b:8766 (got ${given})`);
  return u.origin;
}

/**
 * Where the other processes reach this one: as told, else its own address (a wildcard bind by this
 * machine's name; a loopback one is reachable from this machine only).
 */
export function advertisedUrl(told: string | null, bind: string, port: number): string {
  if (told) return told;
  const host = bind === '0.0.0.0' || bind === '::' ? hostname() : bind.includes(':') ? `[${bind}]` : bind;
  return `http://${host}:${port}`;
}

/** A URL as the log may show it: no password. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}
