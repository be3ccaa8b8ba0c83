/*
 * The relay inside a sandbox (docs/sandbox.md): the sandbox has its own network namespace with
 * only loopback, so the task reaches the world through 127.0.0.1 ports this program relays to unix
 * sockets bound in from outside (the egress proxy, and Jig's API). Once every port listens it runs
 * the task, passes on the signals it gets, and exits as the task did.
 *
 * It runs by itself from a copy in the session's folder (no package.json there, hence plain node
 * built-ins and no imports of Jig's own modules).
 *
 * Usage: node relay.mjs '[{"port":3128,"socket":"/…/egress.sock"}]' command args…
 *
 * Without a command (a container's relay, started by the sandbox program in the container's network
 * namespace from outside) it prints `ready` once every port listens and relays until it is ended.
 */
import { spawn } from 'node:child_process';
import { connect, createServer, type Server } from 'node:net';

interface Relay {
  port: number;
  socket: string;
}

function parseRelays(text: string | undefined): Relay[] {
  const raw: unknown = JSON.parse(text ?? '[]');
  if (!Array.isArray(raw)) throw new Error('the relays must be a list');
  return raw.map((r: unknown) => {
    if (
      typeof r !== 'object' ||
      r === null ||
      !('port' in r) ||
      !('socket' in r) ||
      typeof r.port !== 'number' ||
      typeof r.socket !== 'string'
    )
      throw new Error('a relay needs port and socket');
    return { port: r.port, socket: r.socket };
  });
}

function listen(r: Relay): Promise<Server> {
  const server = createServer((client) => {
    const up = connect(r.socket);
    client.on('error', () => up.destroy());
    up.on('error', () => client.destroy());
    client.pipe(up);
    up.pipe(client);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(r.port, '127.0.0.1', () => resolve(server));
  });
}

async function main(): Promise<void> {
  const [, , relaysText, program, ...args] = process.argv;
  const relays = parseRelays(relaysText);
  const servers = await Promise.all(relays.map(listen));
  if (program === undefined) {
    process.stdout.write('ready\n');
    return;
  }
  for (const s of servers) s.unref();
  const child = spawn(program, args, { stdio: 'inherit' });
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
    process.on(sig, () => {
      child.kill(sig);
    });
  child.once('error', (err) => {
    process.stderr.write(`jig sandbox: could not start ${program}: ${err.message}\n`);
    process.exit(127);
  });
  child.once('exit', (code, signal) => {
    process.exit(code ?? 128 + (signal === 'SIGKILL' ? 9 : signal === 'SIGTERM' ? 15 : 1));
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`jig sandbox relay: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(125);
});
