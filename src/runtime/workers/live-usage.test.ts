import { spawnSync } from 'node:child_process';
import {
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadProviders } from '../../core/harness/load-providers.js';
import { LiveUsage } from './live-usage.js';

const defaults = fileURLToPath(new URL('../../../defaults/harnesses/', import.meta.url));
const { providers } = loadProviders({
  packaged: readdirSync(defaults).map((f) => ({
    file: `defaults/harnesses/${f}`,
    text: readFileSync(defaults + f, 'utf8'),
  })),
});
const claude = providers.claude!;
const SAMPLE = readFileSync(
  fileURLToPath(
    new URL('../../core/harness/readers/samples/claude-sample-stream-json.jsonl', import.meta.url),
  ),
  'utf8',
);
const SESSION = 'f0eaaa8a-f14d-4861-a6cf-1c830d72eaa6';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'jig-live-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('LiveUsage', () => {
  it('reads a log as it grows, a long one a piece at a time', () => {
    const log = join(dir, 's1.log');
    writeFileSync(log, '');
    const live = new LiveUsage(log, claude);
    expect(live.poll().session_id).toBeNull();
    // Three MiB of lines the reader skips, then the stream: every byte is still read.
    writeFileSync(log, `${'not json\n'.repeat(350_000)}${SAMPLE}`);
    const out = live.finish();
    expect(out.session_id).toBe(SESSION);
    expect(out.done).toBe(true);
  });

  it('a log the agent replaced by a link is not read through it', () => {
    const elsewhere = join(dir, 'elsewhere.jsonl');
    writeFileSync(elsewhere, SAMPLE);
    const log = join(dir, 's1.log');
    symlinkSync(elsewhere, log);
    expect(new LiveUsage(log, claude).finish()).toMatchObject({ session_id: null, done: false });
    symlinkSync('/dev/zero', join(dir, 's2.log'));
    expect(new LiveUsage(join(dir, 's2.log'), claude).finish().session_id).toBeNull();
  });

  it('a log the agent replaced by a FIFO reads as nothing, without blocking', () => {
    const log = join(dir, 's1.log');
    expect(spawnSync('mkfifo', [log]).status).toBe(0);
    expect(new LiveUsage(log, claude).finish()).toMatchObject({ session_id: null, done: false });
  });
});
