/**
 * HTTP load from a separate process: autocannon's CLI as a child, so the load generator's own CPU
 * (parsing every answer, keeping the connections busy) is not spent on the event loop of the
 * servers under test, which run in the benchmark's process.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export interface Load {
  url: string;
  method?: 'GET' | 'POST';
  body?: string;
  connections?: number;
  seconds: number;
}

export interface LoadResult {
  /** Mean requests per second over the run. */
  rps: number;
  p50: number;
  p99: number;
  /** Answers that were not 2xx, and connection errors. */
  failed: number;
  /** 2xx answers. */
  ok: number;
}

interface AutocannonJson {
  requests: { average: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
  '2xx': number;
}

const cli = join(dirname(createRequire(import.meta.url).resolve('autocannon/package.json')), 'autocannon.js');

export function load(l: Load): Promise<LoadResult> {
  const args = [cli, '--json', '-c', String(l.connections ?? 10), '-d', String(l.seconds)];
  if (l.method === 'POST') args.push('-m', 'POST', '-H', 'content-type=application/json');
  if (l.body !== undefined) args.push('-b', l.body);
  args.push(l.url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited ${code}: ${err}`));
      try {
        const r = JSON.parse(out) as AutocannonJson;
        resolve({
          rps: r.requests.average,
          p50: r.latency.p50,
          p99: r.latency.p99,
          failed: r.non2xx + r.errors,
          ok: r['2xx'],
        });
      } catch (e) {
        reject(new Error(`autocannon answered no JSON: ${(e as Error).message}\n${out}\n${err}`));
      }
    });
  });
}

export function line(name: string, r: LoadResult): string {
  const failed = r.failed > 0 ? `   (${r.failed} failed)` : '';
  return `${name.padEnd(40)} ${r.rps.toFixed(0).padStart(6)} req/s   p50 ${String(r.p50).padStart(3)} ms   p99 ${String(r.p99).padStart(3)} ms${failed}`;
}
