/**
 * The figures a benchmark measured, for `bench/smoke.ts`: when BENCH_FIGURES names a file, each
 * figure is added to it as one JSON line (the benchmarks run one after another, each in its own
 * process). Without it nothing is written: a benchmark run by hand only prints.
 */
import { appendFileSync } from 'node:fs';

export interface Figure {
  /** Which goal of docs/performance.md it is (smoke.ts names them). */
  key: string;
  value: number;
}

export function record(key: string, value: number): void {
  const file = process.env.BENCH_FIGURES;
  if (file) appendFileSync(file, `${JSON.stringify({ key, value } satisfies Figure)}\n`);
}
