/**
 * Cold start to the first healthy answer, and idle memory, of `jig serve` beside a bare
 * Fastify + SQLite server started the same way in the same run. Run: npm run bench -- startup
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 7);

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function once(cmd: string[], home: string): Promise<{ ms: number; rss: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, cmd, {
    env: { ...process.env, JIG_HOME: home, JIG_HOST: '', JIG_PORT: '' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  const port = await new Promise<number>((res, rej) => {
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /(?:127\.0\.0\.1:|listening )(\d+)/.exec(out);
      if (m) res(Number(m[1]));
    });
    child.once('exit', (c) => rej(new Error(`exited ${c}`)));
  });
  for (;;) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (r.status === 200) {
        await r.text();
        break;
      }
    } catch {
      // not answering yet
    }
  }
  const ms = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 1500));
  const rss = rssMiB(child.pid!);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return { ms, rss };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function series(name: string, cmd: (home: string) => string[]): Promise<{ ms: number; rss: number }> {
  const ms: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const home = mkdtempSync(join(tmpdir(), 'jig-bench-'));
    try {
      const r = await once(cmd(home), home);
      ms.push(r.ms);
      rss.push(r.rss);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
  const out = { ms: median(ms), rss: median(rss) };
  console.log(
    `${name.padEnd(28)} start→healthy median ${out.ms.toFixed(0)} ms   idle RSS median ${out.rss.toFixed(1)} MiB   (${RUNS} runs)`,
  );
  return out;
}

const base = await series('baseline fastify+sqlite', (home) => [
  join(root, 'bench', 'baseline-server.mjs'),
  home,
]);
const fresh = await series('jig serve (fresh home)', () => [
  join(root, 'bin', 'jig.js'),
  'serve',
  '--port',
  '0',
]);
console.log(
  `ratio jig/baseline: start ${(fresh.ms / base.ms).toFixed(2)}x, RSS ${(fresh.rss / base.rss).toFixed(2)}x`,
);
