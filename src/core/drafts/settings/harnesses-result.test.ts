import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  apply,
  facts,
  problemLines,
  resultOf,
  SEEDED,
  texts,
  workspace,
} from '../../../../test/helpers/harness-settings.js';

/** Tasks of the seeded chains that run on claude with the `strong` profile. */
const STRONG_TASKS = [
  ['default', 'implementation.main.implement'],
  ['default', 'verification.fix_loop.main.repair'],
  ['default', 'verification.fix_loop.judge'],
  ['merge-request', 'implementation.main.implement'],
  ['merge-request', 'verification.fix_loop.main.repair'],
  ['merge-request', 'verification.fix_loop.judge'],
  ['merge-request', 'merge_request_feedback.on_failure.repair.repair'],
  ['merge-request', 'merge_request_feedback.fix_loop.repair.repair'],
  ['merge-request', 'merge_request_feedback.fix_loop.judge'],
  ['quick-task', 'implementation.main.implement'],
].map(([chain, path]) => ({ chain, path, fallback: false }));

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

const HARNESSES = stringify({
  harnesses: {
    claude: { provider: 'claude', executable: 'claude', defaults: { model: 'sonnet' } },
    codex: { provider: 'codex', enabled: false },
    gemini: { provider: 'gemini' },
  },
  profiles: {
    deep: { providers: { claude: { model: 'opus', effort: 'high' }, gemini: { model: 'gemini-2.5-pro' } } },
    strong: {
      providers: {
        claude: { model: 'sonnet', effort: 'high' },
        codex: { model: 'gpt-5-codex', effort: 'high' },
      },
      fallback: [{ harness: 'claude', profile: 'deep' }],
    },
    fast: { providers: { claude: { model: 'haiku' }, codex: { model: 'gpt-5-codex-mini' } } },
    legacy: { model: { claude: 'opus', codex: 'gpt-5' }, effort: 'high' },
  },
});
const BASE = texts({ harnesses: HARNESSES, chains: { ...SEEDED.chains, solo: SOLO } });

describe('resolved', () => {
  it('answers the seeded config: every harness available, tasks on claude, no problem', () => {
    const r = resultOf(workspace());
    expect(r.problems).toEqual([]);
    expect(r.changes).toEqual([]);
    expect(r.impact).toEqual({ tasks: 0, chains: [] });
    const resolved = r.resolved!;
    expect(resolved.harnesses.map(({ tasks, ...h }) => ({ ...h, tasks: tasks.length }))).toEqual([
      {
        id: 'claude',
        state: 'available',
        executable_found: true,
        provider: 'claude',
        enabled: true,
        executable: 'claude',
        defaults: { model: 'sonnet' },
        tasks: 20,
      },
      {
        id: 'codex',
        state: 'available',
        executable_found: true,
        provider: 'codex',
        enabled: true,
        executable: 'codex',
        defaults: { effort: 'medium' },
        tasks: 0,
      },
      {
        id: 'gemini',
        state: 'available',
        executable_found: false,
        provider: 'gemini',
        enabled: true,
        executable: 'gemini',
        defaults: { model: 'gemini-2.5-pro' },
        tasks: 0,
      },
      {
        id: 'cursor',
        state: 'available',
        executable_found: false,
        provider: 'cursor',
        enabled: true,
        executable: 'agent',
        defaults: {},
        tasks: 0,
      },
      {
        id: 'opencode',
        state: 'available',
        executable_found: false,
        provider: 'opencode',
        enabled: true,
        executable: 'opencode',
        defaults: {},
        tasks: 0,
      },
      {
        id: 'kilo',
        state: 'available',
        executable_found: false,
        provider: 'kilo',
        enabled: true,
        executable: 'kilo',
        defaults: {},
        tasks: 0,
      },
      {
        id: 'qwen',
        state: 'available',
        executable_found: false,
        provider: 'qwen',
        enabled: true,
        executable: 'qwen',
        defaults: {},
        tasks: 0,
      },
      {
        id: 'copilot',
        state: 'available',
        executable_found: false,
        provider: 'copilot',
        enabled: true,
        executable: 'copilot',
        defaults: {},
        tasks: 0,
      },
      {
        id: 'droid',
        state: 'available',
        executable_found: false,
        provider: 'droid',
        enabled: true,
        executable: 'droid',
        defaults: {},
        tasks: 0,
      },
      {
        id: 'amp',
        state: 'available',
        executable_found: false,
        provider: 'amp',
        enabled: true,
        executable: 'amp',
        defaults: {},
        tasks: 0,
      },
      {
        id: 'antigravity',
        state: 'available',
        executable_found: false,
        provider: 'antigravity',
        enabled: true,
        executable: 'agy',
        defaults: {},
        tasks: 0,
      },
      {
        id: 'auggie',
        state: 'available',
        executable_found: false,
        provider: 'auggie',
        enabled: true,
        executable: 'auggie',
        defaults: {},
        tasks: 0,
      },
    ]);
    expect(resolved.harnesses[0]!.tasks.slice(0, 3)).toEqual([
      { chain: 'default', path: 'spec.main.author', profile: null, fallback: false },
      { chain: 'default', path: 'plan.main.author', profile: null, fallback: false },
      { chain: 'default', path: 'implementation.main.implement', profile: 'strong', fallback: false },
    ]);
    expect(resolved.allowed_tools).toBeNull();
    expect(resolved.escalation).toEqual({ harness: null, grants: null });
    expect(resolved.escalation_effective).toEqual({ harness: 'claude', set: false });
    expect(resolved.profiles).toEqual({
      deep: {
        providers: {
          claude: { model: 'opus', effort: 'high' },
          codex: { model: 'gpt-5-codex', effort: 'high' },
          gemini: { model: 'gemini-2.5-pro', effort: null },
        },
        effort: null,
        tasks: [],
        used_by_fallback: [],
      },
      strong: {
        providers: {
          claude: { model: 'sonnet', effort: 'high' },
          codex: { model: 'gpt-5-codex', effort: 'medium' },
          gemini: { model: 'gemini-2.5-pro', effort: null },
        },
        effort: null,
        tasks: STRONG_TASKS,
        used_by_fallback: [],
      },
      fast: {
        providers: {
          claude: { model: 'haiku', effort: 'low' },
          codex: { model: 'gpt-5-codex-mini', effort: 'low' },
          gemini: { model: 'gemini-2.5-flash', effort: null },
        },
        effort: null,
        tasks: [],
        used_by_fallback: [],
      },
    });
  });

  it('lists fallbacks on the harness they land on, the older profile shape, shared effort and escalation', () => {
    const w = workspace(BASE);
    apply(
      w,
      { op: 'set_escalation', harness: 'item', grants: ['git-commit'] },
      { op: 'set_allowed_tools', tools: ['Read'] },
    );
    const r = resultOf(w, BASE).resolved!;
    const tasksOf = (id: string) => r.harnesses.find((h) => h.id === id)?.tasks;
    expect(tasksOf('codex')).toEqual([
      { chain: 'solo', path: 'work.main.write', profile: 'fast', fallback: false },
      { chain: 'solo', path: 'work.main.write', profile: null, fallback: true },
    ]);
    expect(tasksOf('gemini')).toEqual([
      { chain: 'solo', path: 'work.main.write', profile: 'deep', fallback: true },
    ]);
    expect(r.harnesses.find((h) => h.id === 'codex')?.enabled).toBe(false);
    expect(r.profiles.deep).toEqual({
      providers: {
        claude: { model: 'opus', effort: 'high' },
        gemini: { model: 'gemini-2.5-pro', effort: null },
      },
      effort: null,
      // The tasks on `strong` fall back to `deep` through the profile.
      tasks: [
        ...STRONG_TASKS.map((t) => ({ ...t, fallback: true })),
        { chain: 'solo', path: 'work.main.write', fallback: true },
      ],
      used_by_fallback: ['strong'],
    });
    expect(r.profiles.fast?.tasks).toEqual([{ chain: 'solo', path: 'work.main.write', fallback: false }]);
    expect(r.profiles.strong?.effort).toBe('high');
    expect(r.profiles.legacy).toEqual({
      providers: { claude: { model: 'opus', effort: 'high' }, codex: { model: 'gpt-5', effort: 'high' } },
      effort: 'high',
      tasks: [],
      used_by_fallback: [],
    });
    expect(r.allowed_tools).toEqual(['Read']);
    expect(r.escalation).toEqual({ harness: 'item', grants: ['git-commit'] });
    expect(r.escalation_effective).toEqual({ harness: 'item', set: true });
  });

  it('is null while harnesses.yaml does not load, and its problems are the draft’s', () => {
    const base = texts({ harnesses: 'harnesses:\n  claude:\n    provider: claude\n    enabled: maybe\n' });
    const r = resultOf(workspace(base), base);
    expect(r.resolved).toBeNull();
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0]).toMatchObject({
      file: 'harnesses.yaml',
      path: 'harnesses.claude',
      field: 'enabled',
      line: 4,
    });
  });

  it('a provider no definition names is a problem at its place; the rest still resolves', () => {
    const base = texts({ harnesses: 'harnesses:\n  claude:\n    provider: nobody\n' });
    const r = resultOf(workspace(base), base);
    expect(r.resolved?.harnesses.map((h) => [h.id, h.provider])).toEqual([['claude', 'nobody']]);
    expect(r.problems.filter((p) => p.file === 'harnesses.yaml')).toEqual([
      {
        file: 'harnesses.yaml',
        path: 'harnesses.claude',
        field: 'provider',
        line: 3,
        col: 15,
        message: 'provider `nobody` has no definition (defaults/harnesses/ or config/harnesses/nobody.yaml)',
      },
    ]);
  });
});

describe('problems', () => {
  it('a task running on or falling back to a never harness, at its chain and path', () => {
    const w = workspace(BASE);
    apply(w, { op: 'set_access', harness: 'codex', state: 'never' });
    // Its own launch and its second fallback are on codex: one problem, at its own harness.
    expect(
      resultOf(w, BASE).problems.map((p) => [p.chain, p.path, p.field, p.file, p.line, p.message]),
    ).toEqual([
      [
        'solo',
        'work.main.write',
        'harness',
        'chains/solo.yaml',
        7,
        'harness `codex` is never allowed by policy.yaml, and chain `solo` task `work.main.write` runs on it',
      ],
    ]);
    const g = workspace(BASE);
    apply(g, { op: 'set_access', harness: 'gemini', state: 'never' });
    expect(
      resultOf(g, BASE).problems.map((p) => [p.chain, p.path, p.field, p.file, p.line, p.message]),
    ).toEqual([
      [
        'solo',
        'work.main.write',
        'fallback.0.harness',
        'chains/solo.yaml',
        11,
        'harness `gemini` is never allowed by policy.yaml, and chain `solo` task `work.main.write` falls back to it',
      ],
    ]);
  });

  it('a fallback landing on a never harness through the profile', () => {
    const w = workspace(BASE);
    apply(
      w,
      { op: 'set_access', harness: 'claude', state: 'never' },
      { op: 'set_escalation', harness: 'gemini', grants: null },
    );
    const lines = problemLines(resultOf(w, BASE).problems);
    expect(lines).toHaveLength(20);
    expect(lines[2]).toBe(
      'library.yaml implementation.main.implement.harness: harness `claude` is never allowed by policy.yaml, and chain `default` task `implementation.main.implement` runs on it',
    );
    // Their own launch and their profile's fallback both land on claude: one problem per task.
    expect(lines.filter((l) => l.includes('falls back'))).toEqual([]);
    // A fallback through the profile is placed at the task's `profile`.
    const w2 = workspace(BASE);
    apply(
      w2,
      { op: 'set_profile', name: 'strong', patch: { fallback: [{ harness: 'gemini', profile: 'deep' }] } },
      { op: 'set_access', harness: 'gemini', state: 'never' },
    );
    const lines2 = problemLines(resultOf(w2, BASE).problems);
    expect(lines2).toHaveLength(11);
    expect(lines2[0]).toBe(
      'library.yaml implementation.main.implement.profile: harness `gemini` is never allowed by policy.yaml, and chain `default` task `implementation.main.implement` falls back to it',
    );
    expect(lines2[10]).toBe(
      'chains/solo.yaml work.main.write.fallback.0.harness: harness `gemini` is never allowed by policy.yaml, and chain `solo` task `work.main.write` falls back to it',
    );
  });

  it('a profile with no model for the provider of the harness a task runs on is a launch problem', () => {
    const w = workspace(BASE);
    apply(w, { op: 'set_profile', name: 'fast', patch: { providers: { codex: null } } });
    const r = resultOf(w, BASE);
    expect(r.problems).toEqual([
      {
        path: 'work.main.write',
        field: 'profile',
        message:
          'profile `fast` has no model for provider `codex`, so chain `solo` task `work.main.write` cannot launch on harness `codex`',
        chain: 'solo',
        profile: 'fast',
        provider: 'codex',
        file: 'chains/solo.yaml',
        line: 8,
        col: 18,
      },
    ]);
  });

  it('escalation on a never harness, at defaults.escalation_harness', () => {
    const w = workspace(BASE);
    apply(
      w,
      { op: 'set_escalation', harness: 'gemini', grants: null },
      { op: 'set_access', harness: 'gemini', state: 'never' },
    );
    const esc = resultOf(w, BASE).problems.filter((p) => p.file === 'policy.yaml');
    expect(esc).toEqual([
      {
        path: 'defaults',
        field: 'escalation_harness',
        message: 'escalation runs on harness `gemini`, which is never allowed by policy.yaml',
        file: 'policy.yaml',
        line: expect.any(Number),
        col: expect.any(Number),
      },
    ]);
    // Unset, escalation runs on claude.
    const w2 = workspace();
    apply(w2, { op: 'set_access', harness: 'claude', state: 'never' });
    expect(resultOf(w2).problems.filter((p) => p.file === 'policy.yaml')).toEqual([
      {
        path: 'defaults',
        field: 'escalation_harness',
        message:
          'escalation runs on harness `claude` (the harness escalation uses while `escalation_harness` is unset), which is never allowed by policy.yaml',
        file: 'policy.yaml',
        line: null,
        col: null,
      },
    ]);
  });

  it('keeps the problems of harnesses.yaml and policy.yaml themselves', () => {
    const base = texts({
      harnesses: `${HARNESSES}  empty: {}\n`,
      policy: 'defaults:\n  allowed_harnesses: [claude, codex]\nmaxima:\n  allowed_harnesses: [claude]\n',
    });
    const lines = problemLines(resultOf(workspace(base), base).problems);
    expect(lines).toEqual([
      'harnesses.yaml profiles.empty: a profile needs `providers` (per provider `{model, effort}`)',
      'policy.yaml defaults.allowed_harnesses.1: harness `codex` is in defaults.allowed_harnesses but not in maxima.allowed_harnesses',
    ]);
  });

  it('an executable not found is not a problem', () => {
    const r = resultOf(workspace(), SEEDED, facts([]));
    expect(r.problems).toEqual([]);
    expect(r.resolved!.harnesses.every((h) => !h.executable_found)).toBe(true);
  });
});

describe('changes and impact', () => {
  it('one row per changed file, then access rows, then harness and profile rows', () => {
    const w = workspace(BASE);
    apply(
      w,
      { op: 'set_access', harness: 'codex', state: 'override' },
      { op: 'set_harness', id: 'codex', patch: { enabled: true, executable: 'codex' } },
      { op: 'rename_profile', name: 'legacy', to: 'old' },
      { op: 'add_profile', name: 'cheap' },
      { op: 'set_profile', name: 'fast', patch: { providers: { gemini: { model: 'gemini-2.5-flash' } } } },
    );
    const r = resultOf(w, BASE);
    expect(r.changes).toEqual([
      {
        path: 'harnesses.yaml',
        kind: 'change',
        summary: 'changed: harnesses, profiles',
        fields: ['harnesses', 'profiles'],
        file: 'harnesses.yaml',
      },
      {
        path: 'policy.yaml',
        kind: 'change',
        summary: 'changed: defaults',
        fields: ['defaults'],
        file: 'policy.yaml',
      },
      { path: 'access.codex', kind: 'change', summary: 'available -> override', file: 'policy.yaml' },
      {
        path: 'harnesses.codex',
        kind: 'change',
        summary: 'changed: enabled, executable',
        fields: ['enabled', 'executable'],
        file: 'harnesses.yaml',
      },
      {
        path: 'profiles.fast',
        kind: 'change',
        summary: 'changed: providers',
        fields: ['providers'],
        file: 'harnesses.yaml',
      },
      {
        path: 'profiles.old',
        kind: 'rename',
        summary: 'renamed from legacy',
        from: 'legacy',
        to: 'old',
        file: 'harnesses.yaml',
      },
      { path: 'profiles.cheap', kind: 'add', summary: 'added', file: 'harnesses.yaml' },
    ]);
    expect(r.impact).toEqual({ tasks: 1, chains: ['solo'] });
  });

  it('a removed profile and a created policy.yaml', () => {
    const base = { ...BASE, policy: null };
    const w = workspace(base);
    apply(w, { op: 'remove_profile', name: 'legacy' }, { op: 'set_allowed_tools', tools: ['Read'] });
    expect(resultOf(w, base).changes).toEqual([
      {
        path: 'harnesses.yaml',
        kind: 'change',
        summary: 'changed: profiles',
        fields: ['profiles'],
        file: 'harnesses.yaml',
      },
      { path: 'policy.yaml', kind: 'add', summary: 'policy.yaml created', file: 'policy.yaml' },
      { path: 'profiles.legacy', kind: 'remove', summary: 'removed', file: 'harnesses.yaml' },
    ]);
  });

  it('impact counts each task whose harness changed state once, with the chains holding them', () => {
    const w = workspace();
    apply(w, { op: 'set_access', harness: 'claude', state: 'override' });
    expect(resultOf(w).impact).toEqual({ tasks: 20, chains: ['default', 'merge-request', 'quick-task'] });
    const unused = workspace();
    apply(unused, { op: 'set_access', harness: 'amp', state: 'never' });
    const r = resultOf(unused);
    expect(r.impact).toEqual({ tasks: 0, chains: [] });
    expect(r.changes.filter((c) => c.path.startsWith('access.'))).toEqual([
      { path: 'access.amp', kind: 'change', summary: 'available -> never', file: 'policy.yaml' },
    ]);
  });
});
