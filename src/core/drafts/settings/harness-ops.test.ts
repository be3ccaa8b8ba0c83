import { describe, expect, it } from 'vitest';
import { HARNESS_OP_NAMES } from '../../../contract/drafts/harness-ops.js';
import { apply, at, docOf, resultOf, workspace } from '../../../../test/helpers/harness-settings.js';
import { refusal } from '../../../../test/helpers/structure-ops.js';
import { HARNESS_OPS } from './harness-ops.js';

const harness = (ws: ReturnType<typeof workspace>, id: string): unknown =>
  at(docOf(ws, 'harnesses.yaml'), `harnesses.${id}`);

describe('parse', () => {
  it('knows the eight ops', () => {
    expect(HARNESS_OP_NAMES).toEqual([
      'set_access',
      'set_allowed_tools',
      'set_escalation',
      'set_harness',
      'add_profile',
      'rename_profile',
      'remove_profile',
      'set_profile',
    ]);
  });
  it('refuses an unknown op, naming the ones there are', () => {
    expect(refusal(() => HARNESS_OPS.parse({ op: 'add_harness' }))).toBe(
      'op: unknown op `add_harness` on the harnesses draft (set_access, set_allowed_tools, set_escalation, set_harness, add_profile, rename_profile, remove_profile, set_profile)',
    );
  });
  it('refuses an unknown field and a missing one', () => {
    const extra = { op: 'remove_profile', name: 'fast', force: true };
    const missing = { op: 'rename_profile', name: 'fast' };
    expect(refusal(() => HARNESS_OPS.parse(extra))).toMatch(/\(force\)$/);
    expect(refusal(() => HARNESS_OPS.parse(missing))).toMatch(/^to: /);
  });
  it('answers the op checked', () => {
    const raw = { op: 'add_profile', name: 'cheap', copy_from: 'fast' };
    expect(HARNESS_OPS.parse(raw)).toEqual(raw);
  });
});

describe('set_harness', () => {
  it('sets enabled and executable, and null clears the executable', () => {
    const ws = workspace();
    apply(ws, {
      op: 'set_harness',
      id: 'codex',
      patch: { enabled: false, executable: '/opt/codex/bin/codex' },
    });
    expect(harness(ws, 'codex')).toEqual({
      provider: 'codex',
      enabled: false,
      executable: '/opt/codex/bin/codex',
      defaults: { effort: 'medium' },
    });
    apply(ws, { op: 'set_harness', id: 'codex', patch: { executable: null } });
    expect(harness(ws, 'codex')).toEqual({
      provider: 'codex',
      enabled: false,
      defaults: { effort: 'medium' },
    });
  });

  it('merges defaults per option; null or empty text removes one, and the last one removes the block', () => {
    const ws = workspace();
    apply(ws, {
      op: 'set_harness',
      id: 'claude',
      patch: { defaults: { effort: 'high', permission_mode: 'plan' } },
    });
    expect(at(harness(ws, 'claude'), 'defaults')).toEqual({
      model: 'sonnet',
      effort: 'high',
      permission_mode: 'plan',
    });
    apply(ws, { op: 'set_harness', id: 'claude', patch: { defaults: { model: null, effort: '' } } });
    expect(at(harness(ws, 'claude'), 'defaults')).toEqual({ permission_mode: 'plan' });
    apply(ws, { op: 'set_harness', id: 'claude', patch: { defaults: { permission_mode: null } } });
    expect(harness(ws, 'claude')).toEqual({ provider: 'claude', enabled: true, executable: 'claude' });
    // A harness with no defaults block gets one.
    apply(ws, { op: 'set_harness', id: 'cursor', patch: { defaults: { model: 'gpt-5' } } });
    expect(at(harness(ws, 'cursor'), 'defaults')).toEqual({ model: 'gpt-5' });
  });

  it('an option the provider does not take is a problem carrying the provider, not a refusal', () => {
    const ws = workspace();
    apply(
      ws,
      { op: 'set_harness', id: 'amp', patch: { defaults: { model: 'x', effort: 'ultra' } } },
      { op: 'set_harness', id: 'claude', patch: { defaults: { effort: 'huge', colour: 'blue' } } },
    );
    const problems = resultOf(ws).problems;
    expect(
      problems.map((p) => ({ path: p.path, field: p.field, provider: p.provider, message: p.message })),
    ).toEqual([
      {
        path: 'harnesses.claude.defaults',
        field: 'effort',
        provider: 'claude',
        message: 'provider `claude` does not accept effort `huge` (^(low|medium|high|xhigh|max)$)',
      },
      {
        path: 'harnesses.claude.defaults',
        field: 'colour',
        provider: 'claude',
        message:
          'provider `claude` does not take option `colour` (it takes `model`, `effort`, `permission_mode`)',
      },
      {
        path: 'harnesses.amp.defaults',
        field: 'model',
        provider: 'amp',
        message: 'provider `amp` does not take option `model` (it takes `effort`)',
      },
    ]);
    expect(problems.every((p) => p.file === 'harnesses.yaml' && typeof p.line === 'number')).toBe(true);
  });

  it('refuses a harness not in harnesses.yaml', () => {
    expect(
      refusal(() => apply(workspace(), { op: 'set_harness', id: 'ghost', patch: { enabled: true } })),
    ).toBe('harness `ghost` is not in harnesses.yaml');
  });
  it('refuses an empty patch or one that is not a mapping', () => {
    expect(refusal(() => apply(workspace(), { op: 'set_harness', id: 'codex', patch: {} }))).toBe(
      'patch is empty: give `enabled`, `executable` or `defaults`',
    );
    expect(refusal(() => apply(workspace(), { op: 'set_harness', id: 'codex', patch: [] }))).toBe(
      'patch: must be a mapping',
    );
  });
  it('refuses a key other than enabled, executable and defaults', () => {
    expect(
      refusal(() => apply(workspace(), { op: 'set_harness', id: 'codex', patch: { provider: 'claude' } })),
    ).toBe('patch.provider: not a key a harness patch takes (enabled, executable, defaults)');
  });
  it('refuses a value of the wrong type, and a blank executable', () => {
    const cases: [unknown, string][] = [
      [{ enabled: 'yes' }, 'patch.enabled: must be true or false'],
      [{ executable: 3 }, 'patch.executable: must be a command name or path, or null to clear it'],
      [{ executable: '  ' }, 'patch.executable: is blank: give a command name or path, or null to clear it'],
      [{ defaults: 'fast' }, 'patch.defaults: must be a mapping of option to text (null removes one)'],
      [{ defaults: { effort: 2 } }, 'patch.defaults.effort: must be text, or null to remove the option'],
      [{ defaults: { '': 'x' } }, 'patch.defaults: an option name is blank'],
    ];
    for (const [patch, msg] of cases) {
      const ws = workspace();
      expect(refusal(() => apply(ws, { op: 'set_harness', id: 'codex', patch }))).toBe(msg);
      // Nothing of a refused patch is applied, even the valid keys beside the bad one.
      expect(ws.changedTexts()).toEqual({});
    }
    const mixed = workspace();
    expect(() =>
      apply(mixed, { op: 'set_harness', id: 'codex', patch: { enabled: false, executable: '' } }),
    ).toThrow();
    expect(mixed.changedTexts()).toEqual({});
  });
});
