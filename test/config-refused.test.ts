import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { cleanupAll, http, repoRoot, startJig, type JigProcess } from './helpers/server.js';

/*
 * Issue 48: a config file that does not load must be named wherever a person looks. A reload names
 * every file it could not load, notify.yaml included; `GET /api/apply` (the board's banner) names
 * each file on disk a reload would refuse, with its problems' places and whether a version runs.
 */

const DEFAULTS = join(repoRoot, 'defaults', 'config');
let jig: JigProcess;
const cfg = (file: string) => join(jig.home, 'config', file);
const reload = () => http(`${jig.url}/api/apply/reload`, { method: 'POST' });
const NOTIFY = 'enabled: true\nurl: https://hooks.example.com/jig\nsecret: short\n';

beforeAll(async () => {
  jig = await startJig({ env: { INVOCATION_ID: '', JIG_SUPERVISED: '' } });
});
beforeEach(async () => {
  for (const f of ['library.yaml', 'chains/quick-task.yaml', 'chains/default.yaml'])
    writeFileSync(cfg(f), readFileSync(join(DEFAULTS, f), 'utf8'));
  writeFileSync(cfg('notify.yaml'), 'enabled: false\n');
  expect((await reload()).status).toBe(200);
});
afterAll(cleanupAll);

describe('a notify.yaml that does not load', () => {
  it('is refused by a reload, whole answer, and the test message says so', async () => {
    writeFileSync(cfg('notify.yaml'), NOTIFY);
    const res = await reload();
    expect(res.status).toBe(422);
    expect(res.json).toEqual({
      loaded: [
        'library.yaml',
        'chains/default.yaml',
        'chains/manual.yaml',
        'chains/merge-request.yaml',
        'chains/quick-task.yaml',
        'policy.yaml',
        'intake.yaml',
        'harnesses.yaml',
        'repos.yaml',
      ],
      refused: [
        {
          file: 'notify.yaml',
          problems: [
            {
              path: '',
              field: 'secret',
              message: 'must be at least 16 characters',
              file: 'notify.yaml',
              line: 3,
              col: 9,
            },
          ],
        },
      ],
      warnings: [],
      code: 'config_refused',
      detail: expect.stringContaining('notify.yaml'),
    });
    const test = await http(`${jig.url}/api/notify/test`, { method: 'POST' });
    expect(test.status).toBe(409);
    expect(test.json).toEqual({
      code: 'notify_refused',
      detail:
        'notify.yaml does not load, so no notification is sent: notify.yaml:3:9: secret: must be at least 16 characters; fix the file (Settings › Notifications)',
    });
    const apply = await http(`${jig.url}/api/apply`);
    expect(apply.json.refused).toEqual([
      { file: 'notify.yaml', problems: res.json.refused[0].problems, kept: false },
    ]);
  });
});

describe('GET /api/apply names the files a reload would refuse', () => {
  it('before and after the reload, each problem at its place, the running version kept', async () => {
    const quick = readFileSync(cfg('chains/quick-task.yaml'), 'utf8');
    writeFileSync(
      cfg('chains/quick-task.yaml'),
      quick.replace('    kind: exec # runs', '    kidn: exec # runs'),
    );
    const def = readFileSync(cfg('chains/default.yaml'), 'utf8');
    writeFileSync(cfg('chains/default.yaml'), def.replace('reject_to: plan\n', 'reject_to: nowhere\n'));
    const want = [
      {
        file: 'chains/default.yaml',
        problems: [
          {
            path: 'plan_approval',
            field: 'reject_to',
            message: 'reject_to `nowhere`: no node has that id',
            file: 'chains/default.yaml',
            line: 42,
            col: 16,
          },
        ],
        kept: true,
      },
      {
        file: 'chains/quick-task.yaml',
        problems: [
          {
            path: 'verify',
            field: 'kidn',
            message: 'unknown key `kidn`; did you mean `kind`?',
            file: 'chains/quick-task.yaml',
            line: 18,
            col: 5,
          },
        ],
        kept: true,
      },
    ];
    const before = await http(`${jig.url}/api/apply`);
    expect(before.json.refused).toEqual(want);
    expect(before.json.reload_needed).toBe(true);
    const res = await reload();
    expect(res.status).toBe(422);
    expect(res.json.refused.map((r: { file: string }) => r.file)).toEqual([
      'chains/default.yaml',
      'chains/quick-task.yaml',
    ]);
    expect((await http(`${jig.url}/api/apply`)).json.refused).toEqual(want);
  });
});
