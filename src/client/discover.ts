import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Where the local server listens, as a client on this machine can tell: `JIG_URL` when set, else
 * the pid file a running server keeps in its home, else where the home's last server listened
 * (`run/last-port`, kept after it stopped), else the default address.
 * (The client reads the home itself: it is a client of the API and does not reach into runtime/.)
 */
export interface Discovered {
  url: string;
  token: string | null;
  source: 'JIG_URL' | 'pid-file' | 'last-port' | 'default';
}

export function jigHome(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.JIG_HOME && env.JIG_HOME.trim() !== '' ? env.JIG_HOME : join(homedir(), '.jig'));
}

function readToken(home: string): string | null {
  try {
    const t = readFileSync(join(home, 'run', 'mcp-token'), 'utf8').trim();
    return t.length > 0 ? t : null;
  } catch {
    return null;
  }
}

function hostForUrl(bind: string): string {
  if (bind === '0.0.0.0') return '127.0.0.1';
  if (bind === '::') return '[::1]';
  return bind.includes(':') ? `[${bind}]` : bind;
}

/** The `{bind, port}` a server wrote to `file`, or null when there is none (none has written it). */
function addressIn(file: string): { bind: string; port: number } | null {
  try {
    const rec = JSON.parse(readFileSync(file, 'utf8')) as { bind?: unknown; port?: unknown };
    return typeof rec.port === 'number' && typeof rec.bind === 'string'
      ? { bind: rec.bind, port: rec.port }
      : null;
  } catch {
    return null;
  }
}

export function discoverServer(env: NodeJS.ProcessEnv = process.env): Discovered {
  const home = jigHome(env);
  const token = env.JIG_TOKEN?.trim() || readToken(home);
  if (env.JIG_URL && env.JIG_URL.trim() !== '')
    return { url: env.JIG_URL.replace(/\/+$/, ''), token, source: 'JIG_URL' };
  for (const [file, source] of [
    ['jig.pid', 'pid-file'],
    ['last-port', 'last-port'],
  ] as const) {
    const at = addressIn(join(home, 'run', file));
    if (at) return { url: `http://${hostForUrl(at.bind)}:${at.port}`, token, source };
  }
  return { url: 'http://127.0.0.1:8765', token, source: 'default' };
}
