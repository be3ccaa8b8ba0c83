import { describe, expect, it } from 'vitest';
import { HarnessesFile } from '../../contract/config/harnesses.js';
import { resolveLaunch } from './resolve-launch.js';

const harnesses = HarnessesFile.parse({
  harnesses: {
    claude: {
      provider: 'claude',
      executable: 'claude',
      defaults: { model: 'sonnet', permission_mode: 'default' },
    },
    codex: { provider: 'codex', defaults: { effort: 'medium' } },
    off: { provider: 'gemini', enabled: false },
  },
  profiles: {
    strong: {
      providers: {
        claude: { model: 'opus', effort: 'high' },
        codex: { model: 'gpt-5-codex', effort: 'high' },
      },
    },
    old: { model: { claude: 'haiku' }, effort: 'low' },
    'claude-only': { providers: { claude: { model: 'sonnet' } } },
  },
});
const task = (t: Record<string, unknown>) => ({ path: 'impl.main.implement', ...t });

describe('resolveLaunch', () => {
  it('takes the harness defaults when nothing else sets a model', () => {
    const r = resolveLaunch({ task: task({ harness: 'claude' }), harnesses });
    expect(r).toEqual({
      ok: true,
      choice: {
        harness: 'claude',
        provider: 'claude',
        executable: 'claude',
        model: 'sonnet',
        effort: null,
        permission_mode: 'default',
        sources: { model: 'harness_defaults', effort: null },
      },
    });
  });

  it('follows the precedence: node override, item override, profile, repo, harness defaults', () => {
    const base = {
      task: task({ harness: 'claude', profile: 'strong' }),
      harnesses,
      repoModels: { claude: 'claude-sonnet-4-5' },
    };
    expect(resolveLaunch(base)).toMatchObject({
      ok: true,
      choice: { model: 'opus', effort: 'high', sources: { model: 'task_profile' } },
    });
    expect(resolveLaunch({ ...base, itemOverride: { model: 'haiku' } })).toMatchObject({
      choice: { model: 'haiku', effort: 'high', sources: { model: 'item_override', effort: 'task_profile' } },
    });
    expect(
      resolveLaunch({
        ...base,
        itemOverride: { model: 'haiku' },
        nodeOverride: { model: 'opus-4', effort: 'low' },
      }),
    ).toMatchObject({
      choice: {
        model: 'opus-4',
        effort: 'low',
        sources: { model: 'node_override', effort: 'node_override' },
      },
    });
    const noProfile = { ...base, task: task({ harness: 'claude' }) };
    expect(resolveLaunch(noProfile)).toMatchObject({
      choice: { model: 'claude-sonnet-4-5', sources: { model: 'repo' } },
    });
    expect(
      resolveLaunch({ ...noProfile, task: task({ harness: 'claude', model: 'haiku', effort: 'low' }) }),
    ).toMatchObject({
      choice: { model: 'haiku', effort: 'low', sources: { model: 'task', effort: 'task' } },
    });
  });

  it('reads the older profile shape and picks the provider of the harness', () => {
    expect(resolveLaunch({ task: task({ harness: 'claude', profile: 'old' }), harnesses })).toMatchObject({
      choice: { model: 'haiku', effort: 'low' },
    });
    expect(resolveLaunch({ task: task({ harness: 'codex', profile: 'strong' }), harnesses })).toMatchObject({
      choice: { provider: 'codex', model: 'gpt-5-codex', effort: 'high' },
    });
  });

  it('refuses what cannot launch, saying why', () => {
    expect(resolveLaunch({ task: task({ harness: 'nope' }), harnesses })).toEqual({
      ok: false,
      reason: 'impl.main.implement: harness nope is not in harnesses.yaml',
    });
    expect(resolveLaunch({ task: task({ harness: 'off' }), harnesses })).toEqual({
      ok: false,
      reason: 'impl.main.implement: harness off is disabled in harnesses.yaml',
    });
    expect(resolveLaunch({ task: task({ harness: 'claude', profile: 'missing' }), harnesses })).toEqual({
      ok: false,
      reason: 'impl.main.implement: profile missing is not in harnesses.yaml',
    });
    expect(resolveLaunch({ task: task({ harness: 'codex', profile: 'claude-only' }), harnesses })).toEqual({
      ok: false,
      reason: 'impl.main.implement: profile claude-only has no model for codex',
    });
  });
});
