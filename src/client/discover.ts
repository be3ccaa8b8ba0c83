import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/**
 * Where the local server listens, as a client on this machine can tell: `JIG_URL` when set, else
 * the pid file a running server keeps in its home, else the default address.
 * (The client reads the home itself: it is a client of the API and does not reach into runtime/.)
 */
export interface Discovered {
  url: string;
  token: string | null;
  source: 'JIG_URL' | 'pid-file' | 'default';
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

export function discoverServer(env: NodeJS.ProcessEnv = process.env): Discovered {
  const home = jigHome(env);
  const token = env.JIG_TOKEN?.trim() || readToken(home);
  if (env.JIG_URL && env.JIG_URL.trim() !== '')
    return { url: env.JIG_URL.replace(/\/+$/, ''), token, source: 'JIG_URL' };
  try {
    const rec = JSON.parse(readFileSync(join(home, 'run', 'jig.pid'), 'utf8')) as {
      bind?: string;
      port?: number;
    };
    if (typeof rec.port === 'number' && typeof rec.bind === 'string') {
      return { url: `http://${hostForUrl(rec.bind)}:${rec.port}`, token, source: 'pid-file' };
    }
  } catch {
    // No server has written its address here; fall through to the default.
  }
  return { url: 'http://127.0.0.1:8765', token, source: 'default' };
}
