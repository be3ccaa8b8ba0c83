import { describe, expect, it } from 'vitest';
import { facts, input, REPOS_YAML, SEEDED, WEB } from '../../../../test/helpers/repos-settings.js';
import { intakeResult } from './intake-result.js';

const F = 'intake.yaml';
/** The intake draft's result with the fixture's repos connected (`/src/web`, `/src/web/vendor/lib`). */
const result = (drafted: string | null, published?: string | null) =>
  intakeResult(input(F, drafted, published, facts(), { 'repos.yaml': REPOS_YAML }));

const schedules = (...entries: string[]) => `enabled: true\nschedules:\n${entries.join('')}`;
const entry = (cron: string, repo = WEB, chain = 'quick-task', more = '') =>
  `  - cron: "${cron}"\n    repo: ${repo}\n    chain: ${chain}\n    title: T\n${more}`;

describe('resolved', () => {
  it('answers the seeded file with nothing changed and no problem', () => {
    expect(result(SEEDED.intake!)).toEqual({
      resolved: { enabled: false, interval_s: 300, priority_ceiling: 2, repos: [], schedules: [] },
      problems: [],
      changes: [],
      impact: null,
    });
  });

  it('gives each schedule its index; a missing key takes its default', () => {
    const r = result(
      schedules(entry('0 9 * * 1-5'), entry('0 0 1 * *', WEB, 'default', '    description: Monthly.\n')),
    );
    expect(r.problems).toEqual([]);
    expect(r.resolved).toEqual({
      enabled: true,
      interval_s: 300,
      priority_ceiling: 2,
      repos: [],
      schedules: [
        { index: 0, cron: '0 9 * * 1-5', repo: WEB, chain: 'quick-task', title: 'T', description: '' },
        { index: 1, cron: '0 0 1 * *', repo: WEB, chain: 'default', title: 'T', description: 'Monthly.' },
      ],
    });
  });

  it('shows a value the loader refuses as written, beside its problem', () => {
    const r = result('interval_s: 10\npriority_ceiling: 7\n');
    expect(r.resolved).toMatchObject({ interval_s: 10, priority_ceiling: 7 });
    expect(r.problems).toEqual([
      {
        path: '',
        field: 'interval_s',
        message: 'must be at least 30, got number `10`',
        file: F,
        line: 1,
        col: 13,
      },
      {
        path: '',
        field: 'priority_ceiling',
        message: 'must be at most 4, got number `7`',
        file: F,
        line: 2,
        col: 19,
      },
    ]);
  });
});

describe('problems', () => {
  it("reports a schedule's repo not connected, chain not in the library and invalid cron, each with its index", () => {
    const r = result(schedules(entry('0 9 * * 1-5'), entry('0 9 * * 8', '/src/gone', 'nochain')));
    const at = (field: string, message: string, line: number, col: number) => ({
      path: 'schedules.1',
      field,
      message: `schedule 1: ${message}`,
      file: F,
      line,
      col,
      index: 1,
    });
    expect(r.problems).toEqual([
      at('chain', 'chain `nochain` is not in the library', 9, 12),
      at('repo', 'repo `/src/gone` is not connected (not in repos.yaml)', 8, 11),
      at('cron', 'cron `0 9 * * 8`: day_of_week: 8 is outside 0-7', 7, 11),
    ]);
  });

  it('reports them once also while the file does not load (the checks across files skip such a file)', () => {
    const r = result(`interval_s: 5\nschedules:\n${entry('*/0 * * * *', '/src/gone', 'nochain')}`);
    expect(r.problems.map((p) => [p.path, p.field, p.index])).toEqual([
      ['', 'interval_s', undefined],
      ['schedules.0', 'repo', 0],
      ['schedules.0', 'chain', 0],
      ['schedules.0', 'cron', 0],
    ]);
  });

  it("adds the index to the file's own problems inside a schedule, and not to others", () => {
    const r = result(
      `repos: [/src/gone]\nschedules:\n${entry('0 9 * * *', WEB, 'quick-task', '    owner: me\n')}`,
    );
    expect(r.problems).toEqual([
      {
        path: 'schedules',
        field: '0.owner',
        message: 'unknown key `owner`',
        file: F,
        line: 7,
        col: 5,
        index: 0,
      },
    ]);
    const ok = result(`repos: [/src/gone]\nschedules:\n${entry('0 9 * * *')}`);
    expect(ok.problems).toEqual([
      {
        path: 'repos',
        field: '0',
        message: 'repo `/src/gone` is not connected (not in repos.yaml)',
        file: F,
        line: 1,
        col: 9,
      },
    ]);
  });

  it('does not hold schedule repos against a repos.yaml that does not load', () => {
    const i = input(F, schedules(entry('0 9 * * *', '/src/gone')), undefined, facts(), {
      'repos.yaml': 'repos: 3\n',
    });
    expect(intakeResult(i).problems).toEqual([]);
  });
});

describe('changes', () => {
  it('has one row per dotted key, schedules keyed by index, reading was -> now', () => {
    const before = schedules(entry('0 9 * * *'));
    const after = `enabled: false\ninterval_s: 60\nschedules:\n${entry('0 6 * * *')}${entry('0 0 1 * *')}`;
    expect(result(after, before).changes).toEqual([
      { path: 'enabled', kind: 'change', summary: 'true -> false', file: F },
      { path: 'interval_s', kind: 'add', summary: 'not set -> 60', file: F },
      { path: 'schedules.0.cron', kind: 'change', summary: '0 9 * * * -> 0 6 * * *', file: F },
      { path: 'schedules.1.cron', kind: 'add', summary: 'not set -> 0 0 1 * *', file: F },
      { path: 'schedules.1.repo', kind: 'add', summary: `not set -> ${WEB}`, file: F },
      { path: 'schedules.1.chain', kind: 'add', summary: 'not set -> quick-task', file: F },
      { path: 'schedules.1.title', kind: 'add', summary: 'not set -> T', file: F },
    ]);
  });

  it('has one file-level row when the draft deletes the file', () => {
    expect(result(null).changes).toEqual([
      {
        path: F,
        kind: 'remove',
        summary: 'intake.yaml deleted',
        fields: ['enabled', 'interval_s', 'priority_ceiling', 'repos', 'schedules'],
        file: F,
      },
    ]);
  });
});
