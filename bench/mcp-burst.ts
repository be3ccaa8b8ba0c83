/**
 * What a burst of MCP requests does to everyone else: `BURST` (200) MCP `tools/call` requests
 * (`list_work_items`), then as many `tools/list`, sent at once to a real `jig serve`, while another
 * process probes `/api/health` every 20 ms; the figure is the probe's slowest answer of the two (with one probe in 20 ms and a
 * burst of a few hundred ms, the p99 is the maximum). The baseline, against the same server in the
 * same run: a burst of as many `GET /api/health`, Jig's cheapest route, so the ratio is what MCP
 * costs beyond any burst of requests. The first MCP burst after a start (which loads the MCP SDK
 * and builds the servers) is reported apart.
 * Run: npm run build && npm run bench -- mcp-burst   (BENCH_ROUNDS, BURST)
 */
import { fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { record } from './figures.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const BURST = Number(process.env.BURST ?? 200);
const root = fileURLToPath(new URL('..', import.meta.url));

function post(base: URL, path: string, body: string | null): Promise<number> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: base.hostname,
        port: base.port,
        path,
        method: body === null ? 'GET' : 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', () => resolve(0));
    req.end(body ?? undefined);
  });
}

const MCP_LIST = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' });
const MCP_CALL = (id: number) =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'list_work_items', arguments: {} },
  });

/** The probe's slowest answer while `burst` runs (ms), and whether every request of it answered 200. */
async function probed(base: URL, burst: () => Promise<number[]>): Promise<{ worst: number; ok: boolean }> {
  const probe = fork(fileURLToPath(new URL('./mcp-burst-probe.ts', import.meta.url)), {
    env: { ...process.env, PROBE_URL: new URL('/api/health', base).href },
    execArgv: ['--import', 'tsx'],
  });
  await once(probe, 'message');
  await new Promise((r) => setTimeout(r, 200));
  const statuses = await burst();
  await new Promise((r) => setTimeout(r, 200));
  const answer = once(probe, 'message');
  probe.send('stop');
  const [latencies] = (await answer) as [number[]];
  return { worst: Math.max(...latencies), ok: statuses.every((s) => s === 200) };
}

const home = mkdtempSync(join(tmpdir(), 'jig-bench-mcp-'));
const jig = spawn(process.execPath, [join(root, 'bin', 'jig.js'), 'serve', '--port', '0'], {
  env: { ...process.env, JIG_SANDBOX_DEFAULT: 'none', JIG_HOME: home, JIG_HOST: '', JIG_PORT: '' },
  stdio: ['ignore', 'pipe', 'ignore'],
});
try {
  let out = '';
  const base = await new Promise<URL>((resolve) => {
    jig.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /jig listening on (\S+) /.exec(out);
      if (m) resolve(new URL(m[1]!));
    });
  });
  const mcpBurst = () =>
    Promise.all(Array.from({ length: BURST }, (_, i) => post(base, '/mcp', MCP_CALL(i))));
  const healthBurst = () => Promise.all(Array.from({ length: BURST }, () => post(base, '/api/health', null)));
  const listBurst = () =>
    Promise.all(Array.from({ length: BURST }, (_, i) => post(base, '/mcp', MCP_LIST(i))));
  const first = await probed(base, mcpBurst);
  console.log(
    `first MCP burst after start: health at worst ${first.worst.toFixed(0)} ms${first.ok ? '' : ' (not all 200)'}`,
  );
  const mcp: number[] = [];
  const plain: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const b = await probed(base, healthBurst);
    const m = await probed(base, mcpBurst);
    const l = await probed(base, listBurst);
    if (!b.ok || !m.ok || !l.ok) throw new Error('a request of a burst was not answered 200');
    plain.push(b.worst);
    mcp.push(Math.max(m.worst, l.worst));
    console.log(
      `round ${r + 1}: health at worst ${m.worst.toFixed(0)} ms during ${BURST} MCP tool calls at once, ` +
        `${l.worst.toFixed(0)} ms during ${BURST} tool lists, ${b.worst.toFixed(0)} ms during ${BURST} health requests`,
    );
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(
    `median: MCP burst ${median(mcp).toFixed(0)} ms, baseline burst ${median(plain).toFixed(0)} ms ` +
      `(${(median(mcp) / median(plain)).toFixed(2)}×)`,
  );
  record('mcp_burst_health_ms', Math.round(median(mcp)));
} finally {
  jig.kill('SIGTERM');
  await once(jig, 'exit');
  rmSync(home, { recursive: true, force: true });
}
