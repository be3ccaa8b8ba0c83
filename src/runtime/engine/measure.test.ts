import { spawnSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_AGENT, type SessionRecord } from '../../store/sessions.js';
import { measure } from './measure.js';

let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'jig-measure-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const failed = (id: string): SessionRecord => ({
  ...NO_AGENT,
  id,
  work_item_id: 'i1',
  node: 'check',
  task_path: 'check.main.test',
  kind: 'subprocess',
  status: 'failed',
  argv: ['make', 'test'],
  cwd: dir,
  pid: null,
  pid_start: null,
  log_path: join(dir, `${id}.log`),
  result_path: join(dir, `${id}.json`),
  exit_path: join(dir, `${id}.exit`),
  exit_code: 2,
  result: null,
  time_cap_s: null,
  started_at: '2026-01-01T00:00:00.000Z',
  exited_at: '2026-01-01T00:00:01.000Z',
});

const tailOf = (s: SessionRecord) => measure([s], new Map()).findings[0]?.log_tail;

describe('measure: the log tail of a task that failed without findings', () => {
  it("is the log's last lines", () => {
    writeFileSync(join(dir, 's1.log'), `${'ok\n'.repeat(5000)}Error: boom\n`);
    expect(tailOf(failed('s1'))).toEqual(['Error: boom']);
  });

  it('is empty when the task replaced its log by a link (never read through) or a FIFO (never waited on)', () => {
    writeFileSync(join(dir, 'elsewhere'), 'Error: a secret from elsewhere\n');
    symlinkSync(join(dir, 'elsewhere'), join(dir, 's1.log'));
    expect(tailOf(failed('s1'))).toEqual([]);
    expect(spawnSync('mkfifo', [join(dir, 's2.log')]).status).toBe(0);
    expect(tailOf(failed('s2'))).toEqual([]);
    expect(tailOf(failed('s3'))).toEqual([]);
  });
});
