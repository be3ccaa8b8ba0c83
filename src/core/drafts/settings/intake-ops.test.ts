import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runOps, workspace } from '../../../../test/helpers/repos-settings.js';
import { OpRefused } from '../ops/context.js';
import { INTAKE_OPS } from './intake-ops.js';

type Raw = { op: string } & Record<string, unknown>;

const SCHEDULE = { cron: '0 9 * * 1-5', repo: '/src/web', chain: 'quick-task', title: 'Bump deps' };

/** Runs ops on an intake draft (undefined: the seeded intake.yaml) and answers the text they leave. */
function after(ops: Raw[], intakeYaml?: string | null): string {
  const ws = workspace('intake', intakeYaml === undefined ? {} : { 'intake.yaml': intakeYaml });
  expect(runOps(ws, INTAKE_OPS, ops)).toEqual(ops.map(() => undefined));
  const text = ws.changedTexts()['intake.yaml'];
  if (text === undefined) throw new Error('intake.yaml unchanged');
  return text;
}

function refusal(ops: Raw[], intakeYaml?: string | null): string {
  const ws = workspace('intake', intakeYaml === undefined ? {} : { 'intake.yaml': intakeYaml });
  try {
    runOps(ws, INTAKE_OPS, ops);
  } catch (e) {
    if (e instanceof OpRefused) return e.detail;
    throw e;
  }
  throw new Error('not refused');
}

const TWO = `# two schedules
schedules:
  - cron: "0 9 * * 1-5" # weekdays
    repo: /src/web
    chain: quick-task
    title: First
  - cron: "0 0 1 * *"
    repo: /src/web
    chain: default
    title: Second
    description: Monthly.
`;

describe('set_intake', () => {
  it('sets keys of the seeded file, keeping its comments', () => {
    const text = after([{ op: 'set_intake', patch: { enabled: true, interval_s: 120 } }]);
    expect(parse(text)).toEqual({
      enabled: true,
      interval_s: 120,
      priority_ceiling: 2,
      repos: [],
      schedules: [],
    });
    expect(text).toContain('enabled: true # auto-intake from Beads on or off; schedules run either way');
    expect(text).toContain('interval_s: 120 # seconds between auto-intake polls; at least 30');
  });

  it('adds the defaults of the four keys a file lacked, and writes values the loader refuses as they are', () => {
    expect(parse(after([{ op: 'set_intake', patch: { interval_s: 10 } }], 'schedules: []\n'))).toEqual({
      schedules: [],
      enabled: false,
      interval_s: 10,
      priority_ceiling: 2,
      repos: [],
    });
    expect(parse(after([{ op: 'set_intake', patch: { repos: ['/src/web'] } }], null))).toEqual({
      enabled: false,
      interval_s: 300,
      priority_ceiling: 2,
      repos: ['/src/web'],
    });
  });

  it('sets a key sent as null back to its default', () => {
    expect(
      parse(after([{ op: 'set_intake', patch: { priority_ceiling: null } }], 'priority_ceiling: 4\n')),
    ).toEqual({
      priority_ceiling: 2,
      enabled: false,
      interval_s: 300,
      repos: [],
    });
  });

  it('refuses any other key, pointing max_concurrent at the policy draft', () => {
    expect(refusal([{ op: 'set_intake', patch: { max_concurrent: 2 } }])).toBe(
      'patch.max_concurrent: `max_concurrent` is not one of enabled, interval_s, priority_ceiling, repos; `max_concurrent` belongs to the policy draft',
    );
    expect(refusal([{ op: 'set_intake', patch: { schedules: [] } }])).toBe(
      'patch.schedules: `schedules` is not one of enabled, interval_s, priority_ceiling, repos',
    );
  });

  it('refuses a file that is not a mapping', () => {
    expect(refusal([{ op: 'set_intake', patch: { enabled: true } }], '- a\n')).toBe(
      'intake.yaml is not a mapping; fix the file first',
    );
  });
});

describe('add_schedule', () => {
  it('appends a schedule with description "" by default', () => {
    expect(parse(after([{ op: 'add_schedule', ...SCHEDULE }])).schedules).toEqual([
      { ...SCHEDULE, description: '' },
    ]);
    expect(
      parse(after([{ op: 'add_schedule', ...SCHEDULE, description: 'Keep up.' }], TWO)).schedules,
    ).toEqual([
      expect.objectContaining({ title: 'First' }),
      expect.objectContaining({ title: 'Second' }),
      { ...SCHEDULE, description: 'Keep up.' },
    ]);
  });

  it('creates the list when the file has none', () => {
    expect(parse(after([{ op: 'add_schedule', ...SCHEDULE }], 'enabled: true\n'))).toEqual({
      enabled: true,
      schedules: [{ ...SCHEDULE, description: '' }],
    });
  });

  it('refuses when schedules is not a list, and a missing required field', () => {
    expect(refusal([{ op: 'add_schedule', ...SCHEDULE }], 'schedules: {}\n')).toBe(
      '`schedules` in intake.yaml is not a list; fix the file first',
    );
    const { title: _t, ...noTitle } = SCHEDULE;
    expect(refusal([{ op: 'add_schedule', ...noTitle }])).toMatch(/^title: /);
  });
});

describe('set_schedule', () => {
  it('changes keys of the schedule at the index, null clearing one, comments kept', () => {
    const text = after(
      [{ op: 'set_schedule', index: 1, patch: { cron: '0 6 * * *', description: null } }],
      TWO,
    );
    expect(parse(text).schedules).toEqual([
      { cron: '0 9 * * 1-5', repo: '/src/web', chain: 'quick-task', title: 'First' },
      { cron: '0 6 * * *', repo: '/src/web', chain: 'default', title: 'Second' },
    ]);
    expect(text).toContain('- cron: "0 9 * * 1-5" # weekdays');
  });

  it('refuses an index with no schedule and a key that is not a schedule key', () => {
    expect(refusal([{ op: 'set_schedule', index: 2, patch: { title: 'x' } }], TWO)).toBe(
      'index: no schedule at index 2 (intake.yaml has 2 schedules)',
    );
    expect(refusal([{ op: 'set_schedule', index: -1, patch: {} }], TWO)).toBe(
      'index: no schedule at index -1 (intake.yaml has 2 schedules)',
    );
    expect(refusal([{ op: 'set_schedule', index: 0, patch: { enabled: true } }], TWO)).toBe(
      'patch.enabled: `enabled` is not a schedule key (cron, repo, chain, title, description)',
    );
  });
});

describe('remove_schedule', () => {
  it('removes the schedule at the index; later ones move up', () => {
    expect(parse(after([{ op: 'remove_schedule', index: 0 }], TWO)).schedules).toEqual([
      { cron: '0 0 1 * *', repo: '/src/web', chain: 'default', title: 'Second', description: 'Monthly.' },
    ]);
  });

  it('refuses an index with no schedule', () => {
    expect(refusal([{ op: 'remove_schedule', index: 0 }])).toBe(
      'index: no schedule at index 0 (intake.yaml has 0 schedules)',
    );
    expect(
      refusal(
        [
          { op: 'remove_schedule', index: 1 },
          { op: 'remove_schedule', index: 1 },
        ],
        TWO,
      ),
    ).toBe('index: no schedule at index 1 (intake.yaml has 1 schedule)');
  });
});

describe('parse', () => {
  it('refuses an unknown op, a fractional index and an unknown field, naming it', () => {
    const refused = (raw: Raw) => {
      try {
        INTAKE_OPS.parse(raw);
        return 'accepted';
      } catch (e) {
        return e instanceof OpRefused ? e.detail : 'thrown';
      }
    };
    expect(refused({ op: 'set_poller' })).toBe(
      'op: unknown op `set_poller` on the intake draft (set_intake, add_schedule, set_schedule, remove_schedule)',
    );
    expect(refused({ op: 'remove_schedule', index: 1.5 })).toMatch(/^index: /);
    expect(refused({ op: 'set_intake', patch: {}, enabled: true })).toMatch(/\(enabled\)$/);
    expect(refused({ op: 'remove_schedule', index: 0 })).toBe('accepted');
  });
});
