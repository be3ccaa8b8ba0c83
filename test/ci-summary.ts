import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { Reporter, TestModule, Vitest } from 'vitest/node';

/**
 * `.ci/run`'s closing lines, after the default reporter's: per project (sqlite, postgres), the ten
 * slowest files; the eight tests that took most of their time bound; every failure again by name
 * with its first message lines (CI keeps only the tail of the output, and a failure scrolled out
 * of it cannot be told from a flake); then the counts. Writes every file's figures (its seconds, and when it started and ended in the run) to
 * .cache/test-files.json for scripts/slow-files.mjs and docs/testing.md.
 */
export default class CiSummary implements Reporter {
  private root = process.cwd();
  private startedAt = Date.now();
  /** When each file started and ended, in seconds from the run's start, by project and path. */
  private spans = new Map<string, { from: number; to: number }>();

  onInit(vitest: Vitest): void {
    this.root = vitest.config.root;
    this.startedAt = Date.now();
  }

  onTestModuleStart(m: TestModule): void {
    const at = (Date.now() - this.startedAt) / 1000;
    this.spans.set(`${m.project.name} ${m.moduleId}`, { from: at, to: at });
  }

  onTestModuleEnd(m: TestModule): void {
    const span = this.spans.get(`${m.project.name} ${m.moduleId}`);
    if (span) span.to = (Date.now() - this.startedAt) / 1000;
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const rows = modules.map((m) => {
      const d = m.diagnostic();
      const tests = [...m.children.allTests()];
      return {
        project: m.project.name,
        file: relative(this.root, m.moduleId),
        seconds: (d.collectDuration + d.prepareDuration + d.setupDuration + d.duration) / 1000,
        // Where the file sat in the run (from its start to its end), to see the workers idle.
        span: this.spans.get(`${m.project.name} ${m.moduleId}`) ?? null,
        tests: tests.length,
        passed: tests.filter((t) => t.result().state === 'passed').length,
        skipped: tests.filter((t) => t.result().state === 'skipped').length,
        failed: tests
          .filter((t) => t.result().state === 'failed')
          .map((t) => {
            const first = (t.result().errors ?? [])[0];
            const text = first ? `${first.name ?? 'Error'}: ${first.message}` : 'failed';
            // "expected [ Array(1) ] to deeply equal []" says nothing of what the array held: the
            // diff's lines do.
            const diff = first?.diff
              ? ` | diff: ${stripVTControlCharacters(first.diff)
                  .split('\n')
                  .filter((l) => /^\s*[+-]/.test(l))
                  .join(' | ')
                  .slice(0, 600)}`
              : '';
            return `${t.fullName}: ${text.split('\n').slice(0, 3).join(' | ').slice(0, 400)}${diff}`;
          }),
        // A file that failed to load has no tests to say so.
        error: m.state() === 'failed' && tests.length === 0 ? (m.errors()[0]?.message ?? 'failed') : null,
      };
    });
    mkdirSync(join(this.root, '.cache'), { recursive: true });
    writeFileSync(join(this.root, '.cache', 'test-files.json'), `${JSON.stringify(rows, null, 1)}\n`);

    const projects = [...new Set(rows.map((r) => r.project))].sort();
    const out: string[] = [''];
    for (const p of projects) {
      const mine = rows.filter((r) => r.project === p).sort((a, b) => b.seconds - a.seconds);
      const total = mine.reduce((s, r) => s + r.seconds, 0);
      out.push(`slowest files [${p}] (of ${mine.length}, ${total.toFixed(0)} s in all):`);
      for (const r of mine.slice(0, 10))
        out.push(`  ${r.seconds.toFixed(1).padStart(6)} s  ${String(r.tests).padStart(3)} tests  ${r.file}`);
    }
    // A passing test that took most of its bound is the next run's flake: the closest eight.
    const near = modules
      .flatMap((m) =>
        [...m.children.allTests()].flatMap((t) => {
          const took = t.diagnostic()?.duration;
          const bound = t.options.timeout;
          return took !== undefined && bound
            ? [{ t, took, bound, file: relative(this.root, m.moduleId) }]
            : [];
        }),
      )
      .sort((a, b) => b.took / b.bound - a.took / a.bound)
      .slice(0, 8);
    out.push('tests nearest their time bound:');
    for (const n of near)
      out.push(
        `  ${((100 * n.took) / n.bound).toFixed(0).padStart(3)}% of ${(n.bound / 1000).toFixed(0)} s  [${n.t.project.name}] ${n.file} > ${n.t.name.slice(0, 90)}`,
      );
    for (const r of rows) {
      if (r.error) out.push(`FAILED [${r.project}] ${r.file}: ${r.error.split('\n')[0]}`);
      for (const f of r.failed) out.push(`FAILED [${r.project}] ${r.file} > ${f}`);
    }
    for (const p of projects) {
      const mine = rows.filter((r) => r.project === p);
      const sum = (k: 'passed' | 'skipped') => mine.reduce((s, r) => s + r[k], 0);
      const failed = mine.reduce((s, r) => s + r.failed.length + (r.error ? 1 : 0), 0);
      out.push(`[${p}] ${sum('passed')} passed, ${failed} failed, ${sum('skipped')} skipped`);
    }
    process.stdout.write(`${out.join('\n')}\n`);
  }
}
