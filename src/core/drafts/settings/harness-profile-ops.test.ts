import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  apply,
  at,
  docOf,
  resultOf,
  SEEDED,
  texts,
  workspace,
} from '../../../../test/helpers/harness-settings.js';
import { refusal } from '../../../../test/helpers/structure-ops.js';
import { isObj } from '../ops/context.js';

/** A chain whose agent task names `fast`, falls back to `deep` on gemini, then to a plain model. */
const SOLO = `nodes:
  - id: work
    kind: exec
    tasks:
      - id: write
        kind: agent
        harness: codex
        profile: fast
        prompt: Write.
        fallback:
          - harness: gemini
            profile: deep
          - model: gpt-5
`;

/** harnesses.yaml with profiles in both shapes and fallbacks between them. */
const HARNESSES = stringify({
  harnesses: {
    claude: { provider: 'claude', executable: 'claude' },
    codex: { provider: 'codex' },
    gemini: { provider: 'gemini' },
  },
  profiles: {
    deep: { providers: { claude: { model: 'opus', effort: 'high' }, gemini: { model: 'gemini-2.5-pro' } } },
    strong: {
      providers: {
        claude: { model: 'sonnet', effort: 'high' },
        codex: { model: 'gpt-5-codex', effort: 'medium' },
      },
      fallback: [{ harness: 'claude', profile: 'deep' }],
    },
    fast: {
      providers: { claude: { model: 'haiku' }, codex: { model: 'gpt-5-codex-mini' } },
      fallback: [{ profile: 'strong' }, { harness: 'codex', model: 'gpt-5' }],
    },
    legacy: { model: { claude: 'opus', codex: 'gpt-5' }, effort: 'high' },
  },
});

const BASE = texts({ harnesses: HARNESSES, chains: { ...SEEDED.chains, solo: SOLO } });
const ws = () => workspace(BASE);
const profiles = (w: ReturnType<typeof workspace>) => at(docOf(w, 'harnesses.yaml'), 'profiles');
const keysOf = (v: unknown): string[] => (isObj(v) ? Object.keys(v) : []);
const profileAt = (w: ReturnType<typeof workspace>, name: string) => at(profiles(w), name);

describe('fixture', () => {
  it('has no problem to begin with', () => {
    expect(resultOf(ws(), BASE).problems).toEqual([]);
  });
});

describe('add_profile', () => {
  it('adds a profile with no provider yet, last', () => {
    const w = ws();
    expect(apply(w, { op: 'add_profile', name: 'cheap' })).toEqual([undefined]);
    expect(keysOf(profiles(w))).toEqual(['deep', 'strong', 'fast', 'legacy', 'cheap']);
    expect(profileAt(w, 'cheap')).toEqual({ providers: {} });
    expect(resultOf(w, BASE).problems).toEqual([]);
  });
  it('copies copy_from whole, as its own data', () => {
    const w = ws();
    apply(w, { op: 'add_profile', name: 'fast2', copy_from: 'fast' });
    expect(profileAt(w, 'fast2')).toEqual(profileAt(w, 'fast'));
    apply(w, { op: 'set_profile', name: 'fast2', patch: { fallback: null } });
    expect(at(profileAt(w, 'fast'), 'fallback')).toEqual([
      { profile: 'strong' },
      { harness: 'codex', model: 'gpt-5' },
    ]);
  });
  it('refuses a name that is not an identifier or is taken, and a copy_from naming no profile', () => {
    expect(refusal(() => apply(ws(), { op: 'add_profile', name: 'Fast' }))).toBe(
      'name "Fast" is not an identifier: a lowercase letter, then lowercase letters, digits, `_` or `-`',
    );
    expect(refusal(() => apply(ws(), { op: 'add_profile', name: 'fast' }))).toBe(
      'profile `fast` is already in harnesses.yaml',
    );
    expect(refusal(() => apply(ws(), { op: 'add_profile', name: 'cheap', copy_from: 'ghost' }))).toBe(
      'profile `ghost` is not in harnesses.yaml',
    );
  });
});

describe('rename_profile', () => {
  it('renames in place, retargets fallbacks and answers the tasks left naming the old name', () => {
    const w = ws();
    const [answer] = apply(w, { op: 'rename_profile', name: 'deep', to: 'deepest' });
    expect(answer).toEqual({ broken: [{ chain: 'solo', path: 'work.main.write' }] });
    expect(keysOf(profiles(w))).toEqual(['deepest', 'strong', 'fast', 'legacy']);
    expect(at(profileAt(w, 'strong'), 'fallback')).toEqual([{ harness: 'claude', profile: 'deepest' }]);
    // The dangling name is a problem of the draft, at the chain task's fallback entry.
    const problems = resultOf(w, BASE).problems;
    expect(problems.map((p) => [p.chain, p.path, p.field, p.file, p.message])).toEqual([
      [
        'solo',
        'work.main.write',
        'fallback.0.profile',
        'chains/solo.yaml',
        'chain `solo` task `work.main.write` names profile `deep`, which is not in harnesses.yaml',
      ],
    ]);
  });
  it('answers chain tasks and library components naming a profile the library uses', () => {
    const w = ws();
    const [answer] = apply(w, { op: 'rename_profile', name: 'strong', to: 'solid' });
    expect(answer).toEqual({
      broken: [
        { chain: 'default', path: 'implementation.main.implement' },
        { chain: 'default', path: 'verification.fix_loop.main.repair' },
        { chain: 'default', path: 'verification.fix_loop.judge' },
        { chain: 'merge-request', path: 'implementation.main.implement' },
        { chain: 'merge-request', path: 'verification.fix_loop.main.repair' },
        { chain: 'merge-request', path: 'verification.fix_loop.judge' },
        { chain: 'merge-request', path: 'merge_request_feedback.on_failure.repair.repair' },
        { chain: 'merge-request', path: 'merge_request_feedback.fix_loop.repair.repair' },
        { chain: 'merge-request', path: 'merge_request_feedback.fix_loop.judge' },
        { chain: 'quick-task', path: 'implementation.main.implement' },
        { chain: null, path: 'tasks.implementer' },
        { chain: null, path: 'tasks.repair_verification' },
        { chain: null, path: 'tasks.strict_judge' },
        { chain: null, path: 'tasks.repair_mr_feedback' },
        { chain: null, path: 'tasks.repair_mr_checks' },
      ],
    });
    expect(at(profileAt(w, 'fast'), 'fallback')).toEqual([
      { profile: 'solid' },
      { harness: 'codex', model: 'gpt-5' },
    ]);
    const problems = resultOf(w, BASE).problems;
    expect(problems.filter((p) => p.chain === null).map((p) => `${p.path}.${p.field}`)).toEqual([
      'tasks.implementer.profile',
      'tasks.repair_verification.profile',
      'tasks.strict_judge.profile',
      'tasks.repair_mr_feedback.profile',
      'tasks.repair_mr_checks.profile',
    ]);
    expect(problems.filter((p) => p.chain !== null)).toHaveLength(10);
  });
  it('renaming to the same name changes nothing', () => {
    const w = ws();
    expect(apply(w, { op: 'rename_profile', name: 'fast', to: 'fast' })).toEqual([{ broken: [] }]);
    expect(w.changedTexts()).toEqual({});
  });
  it('refuses no such profile, and a new name not allowed or taken', () => {
    expect(refusal(() => apply(ws(), { op: 'rename_profile', name: 'ghost', to: 'x' }))).toBe(
      'profile `ghost` is not in harnesses.yaml',
    );
    expect(refusal(() => apply(ws(), { op: 'rename_profile', name: 'fast', to: '9fast' }))).toBe(
      'to "9fast" is not an identifier: a lowercase letter, then lowercase letters, digits, `_` or `-`',
    );
    expect(refusal(() => apply(ws(), { op: 'rename_profile', name: 'fast', to: 'deep' }))).toBe(
      'profile `deep` is already in harnesses.yaml',
    );
  });
});

describe('remove_profile', () => {
  it('removes a profile nothing names', () => {
    const w = ws();
    apply(w, { op: 'remove_profile', name: 'legacy' });
    expect(keysOf(profiles(w))).toEqual(['deep', 'strong', 'fast']);
    expect(resultOf(w, BASE).problems).toEqual([]);
  });
  it('refuses while another profile’s fallback names it', () => {
    const w = ws();
    expect(refusal(() => apply(w, { op: 'remove_profile', name: 'deep' }))).toBe(
      'profile `deep` is still named by the fallback of profile `strong`',
    );
  });
  it('refuses while a task names it (its profile, or a fallback of its own)', () => {
    expect(refusal(() => apply(ws(), { op: 'remove_profile', name: 'fast' }))).toBe(
      'profile `fast` is still named by chain `solo` task `work.main.write`',
    );
    const w = ws();
    apply(w, { op: 'set_profile', name: 'strong', patch: { fallback: null } });
    expect(refusal(() => apply(w, { op: 'remove_profile', name: 'deep' }))).toBe(
      'profile `deep` is still named by chain `solo` task `work.main.write`',
    );
    // `strong` is named by library tasks and the chains that use them.
    apply(w, { op: 'set_profile', name: 'fast', patch: { fallback: null } });
    expect(refusal(() => apply(w, { op: 'remove_profile', name: 'strong' }))).toBe(
      'profile `strong` is still named by chain `default` task `implementation.main.implement` and 14 more',
    );
  });
  it('a profile whose own fallback names itself can go', () => {
    const w = ws();
    apply(w, {
      op: 'set_profile',
      name: 'legacy',
      patch: { fallback: [{ profile: 'legacy', harness: 'codex' }] },
    });
    apply(w, { op: 'remove_profile', name: 'legacy' });
    expect(keysOf(profiles(w))).toEqual(['deep', 'strong', 'fast']);
  });
  it('refuses no such profile', () => {
    expect(refusal(() => apply(ws(), { op: 'remove_profile', name: 'ghost' }))).toBe(
      'profile `ghost` is not in harnesses.yaml',
    );
  });
});

describe('set_profile', () => {
  it('merges providers per provider; null removes one', () => {
    const w = ws();
    apply(w, {
      op: 'set_profile',
      name: 'strong',
      patch: {
        providers: {
          claude: { model: 'opus' },
          codex: null,
          gemini: { model: 'gemini-2.5-pro', effort: 'low' },
        },
      },
    });
    expect(profileAt(w, 'strong')).toEqual({
      providers: { claude: { model: 'opus' }, gemini: { model: 'gemini-2.5-pro', effort: 'low' } },
      fallback: [{ harness: 'claude', profile: 'deep' }],
    });
  });
  it('a providers patch turns an older profile into the providers shape', () => {
    const w = ws();
    apply(w, {
      op: 'set_profile',
      name: 'legacy',
      patch: { providers: { gemini: { model: 'gemini-2.5-flash' } } },
    });
    expect(profileAt(w, 'legacy')).toEqual({
      providers: {
        claude: { model: 'opus', effort: 'high' },
        codex: { model: 'gpt-5', effort: 'high' },
        gemini: { model: 'gemini-2.5-flash' },
      },
    });
    expect(resultOf(w, BASE).problems).toEqual([]);
  });
  it('patches an older profile’s model map and effort', () => {
    const w = ws();
    apply(w, {
      op: 'set_profile',
      name: 'legacy',
      patch: { model: { claude: 'sonnet', codex: null }, effort: 'low' },
    });
    expect(profileAt(w, 'legacy')).toEqual({ model: { claude: 'sonnet' }, effort: 'low' });
    apply(w, { op: 'set_profile', name: 'legacy', patch: { effort: null } });
    expect(profileAt(w, 'legacy')).toEqual({ model: { claude: 'sonnet' } });
  });
  it('replaces the fallback list; null removes it', () => {
    const w = ws();
    apply(w, {
      op: 'set_profile',
      name: 'fast',
      patch: { fallback: [{ harness: 'gemini', profile: 'deep' }] },
    });
    expect(at(profileAt(w, 'fast'), 'fallback')).toEqual([{ harness: 'gemini', profile: 'deep' }]);
    apply(w, { op: 'set_profile', name: 'fast', patch: { fallback: null } });
    expect(profileAt(w, 'fast')).toEqual({
      providers: { claude: { model: 'haiku' }, codex: { model: 'gpt-5-codex-mini' } },
    });
  });
  it('refuses each malformed patch', () => {
    const cases: [string, unknown, string][] = [
      ['ghost', { fallback: null }, 'profile `ghost` is not in harnesses.yaml'],
      ['fast', {}, 'patch is empty: give `providers`, `model`, `effort` or `fallback`'],
      ['fast', 'x', 'patch: must be a mapping'],
      ['fast', { models: {} }, 'patch.models: not a profile key (providers, model, effort, fallback)'],
      [
        'legacy',
        { providers: {}, effort: 'low' },
        'patch mixes `providers` with the older `model`/`effort`: send one shape',
      ],
      [
        'fast',
        { model: { claude: 'opus' } },
        'profile `fast` is written with `providers`: patch `providers`, not `model` or `effort`',
      ],
      [
        'fast',
        { effort: 'high' },
        'profile `fast` is written with `providers`: patch `providers`, not `model` or `effort`',
      ],
      [
        'fast',
        { providers: { claude: 'opus' } },
        'patch.providers.claude: must be `{model, effort?}` with text values, or null to remove it',
      ],
      [
        'fast',
        { providers: { claude: { effort: 'low' } } },
        'patch.providers.claude: must be `{model, effort?}` with text values, or null to remove it',
      ],
      [
        'fast',
        { providers: { claude: { model: 'opus', tier: 1 } } },
        'patch.providers.claude: must be `{model, effort?}` with text values, or null to remove it',
      ],
      [
        'fast',
        { providers: { claude: { model: 'opus', effort: 3 } } },
        'patch.providers.claude: must be `{model, effort?}` with text values, or null to remove it',
      ],
      [
        'fast',
        { providers: ['claude'] },
        'patch.providers: must be a mapping of provider to `{model, effort?}`',
      ],
      ['legacy', { model: 'opus' }, 'patch.model: must be a mapping of provider to model (null removes one)'],
      ['legacy', { model: { claude: 1 } }, 'patch.model.claude: must be a model name, or null to remove it'],
      ['legacy', { effort: 2 }, 'patch.effort: must be an effort, or null to remove it'],
      [
        'fast',
        { fallback: { profile: 'deep' } },
        'patch.fallback: must be a list of launches, or null to remove it',
      ],
    ];
    for (const [name, patch, msg] of cases) {
      const w = ws();
      expect(refusal(() => apply(w, { op: 'set_profile', name, patch }))).toBe(msg);
      expect(w.changedTexts()).toEqual({});
    }
  });
});
