import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * Loopback hosts for the sandbox tests' egress: what a task reaches, or is refused, through its
 * proxy. Each answers its name, and the API key it got (what a credential's header carried).
 */

/** A loopback HTTP (or, given a certificate, HTTPS) server answering `name` and the key it got. */
export async function answering(
  name: string,
  tls?: { cert: string; key: string },
): Promise<{ server: Server; port: number }> {
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const key = req.headers['x-api-key'];
    res.end(typeof key === 'string' ? `${name} key=${key}` : name);
  };
  const server = tls ? createHttpsServer(tls, answer) : createServer(answer);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  if (a === null || typeof a === 'string') throw new Error('no port');
  return { server, port: a.port };
}

/**
 * A HOME for the server of a sandbox test: a git identity (a jail's private HOME gets a copy of it,
 * and nothing else of this folder) and a private key no jailed task may read.
 */
export function serverHomeWithKey(name: string): string {
  const home = mkdtempSync(join(tmpdir(), 'jig-server-home-'));
  writeFileSync(join(home, '.gitconfig'), `[user]\n\tname = ${name}\n\temail = sandbox@jig.invalid\n`);
  mkdirSync(join(home, '.ssh'));
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY\n', { mode: 0o600 });
  return home;
}
