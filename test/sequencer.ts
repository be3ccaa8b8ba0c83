import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Starts the files that take longest first, so the run does not end on one of them while the other
 * workers sit idle. Vitest orders by the durations of the last run on this machine when it has
 * them, else by file size; a fresh clone (CI) has none, and several of the longest files are small
 * ones that wait (the real minute of schedules-realtime, workers sharing PostgreSQL). The committed
 * figures in test/slow-files.json (seconds, from `.ci/run`'s report: `node scripts/slow-files.mjs`)
 * put those first; every other file keeps Vitest's order after them.
 */
export default class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const seconds = JSON.parse(readFileSync(join(root, 'test', 'slow-files.json'), 'utf8')) as Record<
      string,
      number
    >;
    const known = (f: TestSpecification): number => seconds[relative(root, f.moduleId)] ?? 0;
    const ordered = await super.sort(files);
    const slow = ordered.filter((f) => known(f) > 0).sort((a, b) => known(b) - known(a));
    return [...slow, ...ordered.filter((f) => known(f) === 0)];
  }
}
