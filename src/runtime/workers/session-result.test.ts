import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readResult, RESULT_MAX_BYTES, RESULT_MAX_DEPTH } from './session-result.js';

let base: string;
let results: string;
let outside: string;
const at = (name: string) => join(results, name);

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'jig-result-')));
  results = join(base, 'results');
  outside = join(base, 'outside');
  mkdirSync(results);
  mkdirSync(outside);
  writeFileSync(join(outside, 'result.json'), '{"status":"done"}');
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe('readResult', () => {
  it('no file is no result; a valid one decides', () => {
    expect(readResult(at('s1.json'))).toBeNull();
    writeFileSync(at('s1.json'), '{"status":"done_with_concerns","concerns":"slow","extra":1}');
    expect(readResult(at('s1.json'))).toEqual({
      status: 'done_with_concerns',
      result: { status: 'done_with_concerns', concerns: 'slow', extra: 1 },
    });
  });

  it('a FIFO is failed at once, with a note that says so', () => {
    expect(spawnSync('mkfifo', [at('s1.json')]).status).toBe(0);
    expect(readResult(at('s1.json'))).toEqual({
      status: 'failed',
      result: null,
      note: 'result file is a FIFO, not a regular file',
    });
  });

  it('a link to /dev/zero or out of the results folder is failed, never read', () => {
    symlinkSync('/dev/zero', at('s1.json'));
    expect(readResult(at('s1.json'))).toEqual({
      status: 'failed',
      result: null,
      note: 'result file leads outside the results folder (to /dev/zero)',
    });
    symlinkSync(join(outside, 'result.json'), at('s2.json'));
    expect(readResult(at('s2.json'))).toEqual({
      status: 'failed',
      result: null,
      note: `result file leads outside the results folder (to ${join(outside, 'result.json')})`,
    });
  });

  it('a file larger than the cap is failed', () => {
    writeFileSync(at('s1.json'), Buffer.alloc(RESULT_MAX_BYTES + 1, 0x20));
    expect(readResult(at('s1.json'))).toEqual({
      status: 'failed',
      result: null,
      note: `result file is larger than ${RESULT_MAX_BYTES} bytes`,
    });
  });

  it('not JSON, too deep, or no valid status is failed; only an object is kept as the result', () => {
    writeFileSync(at('s1.json'), 'not json');
    expect(readResult(at('s1.json'))).toMatchObject({ status: 'failed', result: null });
    expect(readResult(at('s1.json'))?.note).toMatch(/^result file is not JSON: /);
    const deep = 100_000;
    writeFileSync(at('s2.json'), `{"status":"done","x":${'['.repeat(deep)}${']'.repeat(deep)}}`);
    expect(readResult(at('s2.json'))).toEqual({
      status: 'failed',
      result: null,
      note: `result file nests deeper than ${RESULT_MAX_DEPTH} levels`,
    });
    writeFileSync(at('s3.json'), '{"status":"great"}');
    expect(readResult(at('s3.json'))).toEqual({
      status: 'failed',
      result: { status: 'great' },
      note: 'result file has no valid status',
    });
    writeFileSync(at('s4.json'), '[1,2]');
    expect(readResult(at('s4.json'))).toEqual({
      status: 'failed',
      result: null,
      note: 'result file has no valid status',
    });
  });
});
