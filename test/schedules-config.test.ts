import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatProblem } from '../src/contract/problems.js';
import { loadIntake, loadPolicy } from '../src/core/config/load-settings.js';
import { intakeCronProblems, policyTriggerProblems } from '../src/runtime/intake/cron-rules.js';
import { makeRepo } from './helpers/git.js';
import { cleanupAll, http, runJig } from './helpers/server.js';
import { boot, connect, entriesYaml, reload, writeConfig, type Booted } from './schedules-helpers.js';

function intakeProblems(text: string): string[] {
  const load = loadIntake(text);
  expect(load.problems).toEqual([]);
  return intakeCronProblems(load, text).map(formatProblem);
}

describe('a bad cron in intake.yaml is a problem at the character at fault', () => {
  const entry = (cron: string) => `schedules:\n  - cron: ${cron}\n    repo: /r\n    chain: c\n    title: t\n`;

  it.each([
    ['plain', '0 9 * * 8', 2, 19, 'day_of_week: 8 is outside 0-7'],
    ['double-quoted', '"0 9 * * 8"', 2, 20, 'day_of_week: 8 is outside 0-7'],
    ['double-quoted with escapes', '"0\\t9 * \\u002A 8"', 2, 26, 'day_of_week: 8 is outside 0-7'],
    ['single-quoted', "'0 9 * * 8'", 2, 20, 'day_of_week: 8 is outside 0-7'],
    ['a range backwards', '"0 5-1 * * *"', 2, 14, 'hour: range 5-1 runs backwards'],
    ['a step of zero', '"*/0 * * * *"', 2, 14, 'minute: step 0 is not allowed'],
    ['a name', '"0 9 1 JAN *"', 2, 18, 'month: names such as JAN are not read; use 1-12'],
    ['a non-ASCII digit', '"0 ٩ * * *"', 2, 14, 'hour: ٩ uses a digit other than 0-9'],
    ['too many fields', '"0 9 * * * 2025"', 2, 22, 'expected 5 fields, got 6'],
    ['a shortcut', '"@daily"', 2, 12, 'expected 5 fields, got 1; shortcuts such as @daily are not read'],
  ])('%s', (_what, cron, line, col, message) => {
    expect(intakeProblems(entry(cron))).toEqual([`intake.yaml:${line}:${col}: schedules.0.cron: ${message}`]);
  });

  it('in a block scalar and a folded plain scalar', () => {
    expect(
      intakeProblems('schedules:\n  - cron: |\n      0 9 * * 8\n    repo: /r\n    chain: c\n    title: t\n'),
    ).toEqual(['intake.yaml:3:15: schedules.0.cron: day_of_week: 8 is outside 0-7']);
    expect(
      intakeProblems(
        'schedules:\n  - cron: >-\n      0 9\n      * * 8\n    repo: /r\n    chain: c\n    title: t\n',
      ),
    ).toEqual(['intake.yaml:4:11: schedules.0.cron: day_of_week: 8 is outside 0-7']);
    expect(
      intakeProblems('schedules:\n  - cron: 0 9\n      * 13 *\n    repo: /r\n    chain: c\n    title: t\n'),
    ).toEqual(['intake.yaml:3:9: schedules.0.cron: month: 13 is outside 1-12']);
  });

  it('names each bad entry by its index, and falls back to the value when the text is not at hand', () => {
    const text =
      entriesYaml('schedules', [
        { cron: '0 9 * * *', repo: '/r', chain: 'c', title: 'ok' },
        { cron: '60 9 * * *', repo: '/r', chain: 'c', title: 'bad' },
      ]) + 'enabled: true\n';
    expect(intakeProblems(text)).toEqual(['intake.yaml:6:12: schedules.1.cron: minute: 60 is outside 0-59']);
    const load = loadIntake(text);
    expect(intakeCronProblems(load, null).map(formatProblem)).toEqual([
      'intake.yaml:6:11: schedules.1.cron: minute: 60 is outside 0-59',
    ]);
    // Text that is not the one loaded (a draft checked against the file on disk) is not trusted.
    const other = text.replace('60 9', '60  9').replace('ok', 'ok, with more words');
    expect(intakeCronProblems(load, other).map(formatProblem)).toEqual([
      'intake.yaml:6:11: schedules.1.cron: minute: 60 is outside 0-59',
    ]);
  });

  it('policy.yaml triggers: only a cron that cannot be read at all is a problem', () => {
    const text = entriesYaml('triggers', [
      { cron: '0 24 * * *', repo: '/r', title: 'out of range' },
      { cron: '0 ３ * * *', repo: '/r', title: 'fullwidth digit' },
      { cron: 'every day', repo: '/r', title: 'words' },
      { cron: '0 9 * * SUN', repo: '/r', title: 'a name' },
    ]);
    const load = loadPolicy(text);
    expect(load.problems).toEqual([]);
    expect(policyTriggerProblems(load, text).map(formatProblem)).toEqual([
      'policy.yaml:8:12: triggers.2.cron: expected 5 fields, got 2',
      'policy.yaml:11:20: triggers.3.cron: day_of_week: names such as SUN are not read; use 0-7 (0 and 7 are Sunday)',
    ]);
  });
});

describe('GET /api/intake and jig admin schedules', () => {
  let b: Booted;
  let repo: string;

  beforeAll(async () => {
    b = await boot('2030-01-07T09:00:30Z');
    repo = makeRepo({ 'package.json': '{"scripts":{"test":"node -e 0"}}\n' });
    await connect(b, repo);
    writeConfig(
      b.home,
      'intake.yaml',
      'enabled: true\ninterval_s: 600\nrepos: []\n' +
        entriesYaml('schedules', [
          { cron: '0 9 * * 1-5', repo, chain: 'quick-task', title: 'Weekdays', description: 'd' },
          { cron: '*/15 * * * *', repo: '/not/connected', chain: 'quick-task', title: 'Elsewhere' },
          { cron: '0 0 30 2 *', repo, chain: 'quick-task', title: 'February 30th' },
          { cron: '0 12 * * *', repo, chain: 'nope', title: 'Unknown chain' },
        ]),
    );
    writeConfig(
      b.home,
      'policy.yaml',
      'max_concurrent: 3\n' +
        entriesYaml('triggers', [{ cron: '0 25 * * *', repo, chain: 'quick-task', title: 'Legacy' }]),
    );
    const r = await reload(b);
    expect(r.status, r.text).toBe(200);
  });
  afterAll(async () => {
    await b.server.close();
    await cleanupAll();
  });

  it('answers the running settings and each schedule with its next firing and problems', async () => {
    const res = await http(`${b.url}/api/intake`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      enabled: true,
      interval_s: 600,
      priority_ceiling: 2,
      repos: [],
      intake_off: false,
      invalid_intake: null,
      schedules: [
        {
          index: 0,
          source: 'intake',
          cron: '0 9 * * 1-5',
          repo,
          chain: 'quick-task',
          title: 'Weekdays',
          description: 'd',
          next_fire_at: '2030-01-08T09:00:00.000Z',
          problems: [],
        },
        {
          index: 1,
          source: 'intake',
          cron: '*/15 * * * *',
          repo: '/not/connected',
          chain: 'quick-task',
          title: 'Elsewhere',
          description: '',
          next_fire_at: null,
          problems: [
            {
              field: 'repo',
              message: 'repo /not/connected is not connected; connect it with `jig repo connect`',
            },
          ],
        },
        expect.objectContaining({ index: 2, next_fire_at: null, problems: [] }),
        expect.objectContaining({
          index: 3,
          next_fire_at: null,
          problems: [
            {
              field: 'chain',
              message:
                'chain nope names no chain in the library (chains: default, manual, merge-request, quick-task)',
            },
          ],
        }),
        {
          index: 0,
          source: 'policy.triggers',
          cron: '0 25 * * *',
          repo,
          chain: 'quick-task',
          title: 'Legacy',
          description: '',
          next_fire_at: null,
          problems: [{ field: 'cron', message: 'hour: 25 is outside 0-23' }],
        },
      ],
    });
  });

  it('is listed in the OpenAPI document', async () => {
    const doc = (await http(`${b.url}/openapi.json`)).json;
    expect(Object.keys(doc.paths['/api/intake'])).toEqual(['get']);
  });

  it('jig admin schedules prints the same, as JSON or for a person', async () => {
    const json = await runJig(['admin', 'schedules', '--json'], { JIG_HOME: b.home });
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual((await http(`${b.url}/api/intake`)).json);
    const text = await runJig(['admin', 'schedules'], { JIG_HOME: b.home });
    expect(text.code).toBe(0);
    expect(text.stdout.split('\n').slice(0, 5)).toEqual([
      'auto-intake on · every 600 s · priority ≤ 2 · repos: every enabled repo',
      'schedules.0  0 9 * * 1-5  next 2030-01-08T09:00:00.000Z',
      `    Weekdays · quick-task · ${repo}`,
      'schedules.1  */15 * * * *  next skipped',
      '    Elsewhere · quick-task · /not/connected',
    ]);
    expect(text.stdout).toContain('    ! repo: repo /not/connected is not connected');
    expect(text.stdout).toContain('schedules.2  0 0 30 2 *  next never');
    expect(text.stdout).toContain('policy.yaml triggers.0  0 25 * * *  next skipped');
    expect(text.stdout).toContain('    ! cron: hour: 25 is outside 0-23');
  });
});
