/*
 * The sandbox program (docs/sandbox.md, ADR 0033): the process Jig launches for a sandboxed task,
 * in the task's place. It serves the session's egress proxy and the relay to Jig's API on unix
 * sockets, starts bwrap (or a podman or docker container) with the task inside, and exits as the
 * task did. Being the task's parent,
 * in the task's process group, it lives exactly as long as the task: a Jig restart leaves both
 * running (the session is adopted), and ending the session's group ends the proxy with it.
 *
 * Usage: node sandbox-main.js PLAN_FILE
 */
import { spawn } from 'node:child_process';
import { appendFileSync, copyFileSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, request as httpRequest } from 'node:http';
import type { Server } from 'node:net';
import type { Duplex } from 'node:stream';
import { sandboxApiVerdict } from '../../core/sandbox/api-allow.js';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bwrapArgs } from './bwrap-args.js';
import { runContainer, type Relay } from './container-run.js';
import { egressProxy } from './egress-proxy.js';
import { planFiles, PROXY_PORT, SandboxPlan } from './plan.js';

const here = dirname(fileURLToPath(import.meta.url));

function listenOn(server: Server, path: string): Promise<void> {
  rmSync(path, { force: true });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => resolve());
  });
}

/**
 * Jig's API, relayed with a filter: what the task may ask (its own item, as a worker) goes on to
 * the server's loopback port, named as the item's worker; anything else is answered 403 here.
 * Stream upgrades are refused: a task has no use for the board's event stream.
 */
function jigRelay(port: number, caller: { item: string; escalation: boolean }): Server {
  const server = createHttpServer((req, res) => {
    const v = sandboxApiVerdict(req.method ?? 'GET', req.url ?? '/', caller.item, caller.escalation);
    if (!v.ok) {
      res
        .writeHead(403, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { code: 'sandbox_api_refused', message: v.reason } }));
      return;
    }
    const headers = { ...req.headers, 'x-jig-work-item': caller.item };
    const up = httpRequest(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'sandbox_api_unreachable', message: err.message } }));
    });
    req.pipe(up);
  });
  server.on('upgrade', (_req, socket: Duplex) => socket.end('HTTP/1.1 403 Forbidden\r\n\r\n'));
  return server;
}

async function main(): Promise<number> {
  const planPath = process.argv[2];
  if (planPath === undefined) throw new Error('usage: sandbox-main PLAN_FILE');
  const plan = SandboxPlan.parse(JSON.parse(readFileSync(planPath, 'utf8')));
  const f = planFiles(plan.dir);
  const env: Record<string, string> = { ...plan.env };
  let command = plan.argv;
  let relays: Relay[] | null = null;
  if (plan.network.mode === 'proxied') {
    const ca = plan.network.tls;
    // Loaded only for a session with secrets: certificates are the one thing needing node-forge.
    const leaves = ca
      ? new (await import('./ca.js')).LeafCertificates(
          readFileSync(ca.cert, 'utf8'),
          readFileSync(ca.key, 'utf8'),
        )
      : null;
    const proxy = egressProxy({
      lists: { allow: plan.network.allow, deny: plan.network.deny },
      secrets: plan.network.secrets,
      ...(leaves ? { tls: { leaf: (host: string) => leaves.for(host) } } : {}),
      onRefused: (r) => appendFileSync(f.refusals, `${JSON.stringify(r)}\n`, { mode: 0o600 }),
    });
    await listenOn(proxy, f.egressSocket);
    proxy.unref();
    relays = [{ port: PROXY_PORT, socket: f.egressSocket }];
    if (plan.network.jigPort !== null) {
      const jig = jigRelay(plan.network.jigPort, plan.network.caller);
      await listenOn(jig, f.jigSocket);
      jig.unref();
      relays.push({ port: plan.network.jigPort, socket: f.jigSocket });
    }
    copyFileSync(join(here, 'relay-main.js'), f.relay);
    command = [process.execPath, f.relay, JSON.stringify(relays), ...plan.argv];
    const proxyUrl = `http://127.0.0.1:${PROXY_PORT}`;
    for (const k of ['HTTP_PROXY', 'HTTPS_PROXY', 'http_proxy', 'https_proxy', 'ALL_PROXY', 'all_proxy'])
      env[k] = proxyUrl;
    // Jig's own port is relayed inside; everything else goes through the proxy.
    env.NO_PROXY = env.no_proxy = plan.network.jigPort !== null ? `127.0.0.1:${plan.network.jigPort}` : '';
  }
  // A container's relay runs outside it, in its network namespace (container-run.ts).
  if (plan.container !== null) return runContainer(plan, plan.container, env, relays);
  const child = spawn(plan.program, [...bwrapArgs(plan), ...command], { env, stdio: 'inherit' });
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.on(sig, () => child.kill(sig));
  return new Promise<number>((resolve) => {
    child.once('error', (err) => {
      process.stderr.write(`jig sandbox: could not start ${plan.program}: ${err.message}\n`);
      resolve(127);
    });
    child.once('exit', (code, signal) => resolve(code ?? (signal === 'SIGKILL' ? 137 : 143)));
  });
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`jig sandbox: ${message}\n`);
    // The jail never started (an image missing, a runtime refusing): a problem to fix in the setup,
    // which the server reads as such rather than as the task failing.
    const plan = process.argv[2];
    if (plan !== undefined)
      try {
        writeFileSync(planFiles(dirname(plan)).unstarted, JSON.stringify({ message }), { mode: 0o600 });
      } catch {
        // The session's folder is gone: the exit code says enough.
      }
    process.exit(125);
  },
);
