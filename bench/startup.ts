/**
 * Cold start to the first healthy answer, and idle memory, of `jig serve` beside a bare
 * Fastify + SQLite server started the same way in the same run. Run: npm run bench -- startup
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { record } from './figures.js';

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

/*
 * The baseline and Jig start in turns (baseline, Jig, baseline, …), and the ratio is taken pair by
 * pair: this machine's speed drifts by a fifth within an hour, and two series run one after the
 * other measured the drift as much as the servers. BENCH_JIG_ROOT names another checkout's root to
 * start instead of this one's (an A/B of two builds: run it once for each).
 */
const jigRoot = process.env.BENCH_JIG_ROOT ?? root;
const servers = {
  baseline: (home: string) => [join(root, 'bench', 'baseline-server.mjs'), home],
  jig: () => [join(jigRoot, 'bin', 'jig.js'), 'serve', '--port', '0'],
};

const runs: { base: { ms: number; rss: number }; jig: { ms: number; rss: number } }[] = [];
for (let i = 0; i < RUNS; i++) {
  const pair = { base: { ms: NaN, rss: NaN }, jig: { ms: NaN, rss: NaN } };
  for (const which of ['base', 'jig'] as const) {
    const home = mkdtempSync(join(tmpdir(), 'jig-bench-'));
    try {
      pair[which] = await once(which === 'base' ? servers.baseline(home) : servers.jig(), home);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  }
  runs.push(pair);
}
const show = (name: string, pick: (r: (typeof runs)[number]) => { ms: number; rss: number }): void =>
  console.log(
    `${name.padEnd(28)} start→healthy median ${median(runs.map((r) => pick(r).ms)).toFixed(0)} ms   idle RSS median ${median(runs.map((r) => pick(r).rss)).toFixed(1)} MiB   (${RUNS} runs)`,
  );
show('baseline fastify+sqlite', (r) => r.base);
show('jig serve (fresh home)', (r) => r.jig);
const ratio = (f: (r: (typeof runs)[number]) => number): string => median(runs.map(f)).toFixed(2);
console.log(
  `ratio jig/baseline, median of the pairs: start ${ratio((r) => r.jig.ms / r.base.ms)}x, RSS ${ratio((r) => r.jig.rss / r.base.rss)}x`,
);
record('start', median(runs.map((r) => r.jig.ms / r.base.ms)));
record('rss', median(runs.map((r) => r.jig.rss / r.base.rss)));
