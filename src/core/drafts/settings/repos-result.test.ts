import { describe, expect, it } from 'vitest';
import { facts, input, LIB, REPOS_YAML, WEB } from '../../../../test/helpers/repos-settings.js';
import { reposResult } from './repos-result.js';

const F = 'repos.yaml';
/** The repos draft's result for a drafted repos.yaml over a published one (default: the fixture). */
const result = (
  drafted: string | null,
  published: string | null = REPOS_YAML,
  f = facts(),
  others: Record<string, string | null> = {},
) => reposResult(input(F, drafted, published, f, others));

const DEFAULTS = {
  time_cap_minutes: null,
  total_time_cap_minutes: null,
  token_budget: null,
  budget_usd: null,
  allowed_tools: null,
  grants: [],
  sandbox: null,
  allowed_harnesses: null,
  escalation_harness: null,
  max_attempts: null,
  timeout_minutes: null,
};
const allFrom = (source: string) => Object.fromEntries(Object.keys(DEFAULTS).map((k) => [k, source]));

describe('resolved', () => {
  it('is empty on the seeded config, with nothing else to say', () => {
    expect(reposResult(input(F, null, null))).toEqual({
      resolved: { repos: [], detected: [] },
      problems: [],
      changes: [],
      impact: { running: {} },
    });
  });

  it('splits managed and detected entries, each key with the value its items run under and where it comes from', () => {
    const r = result(REPOS_YAML);
    expect(r.problems).toEqual([]);
    expect(r.resolved).toEqual({
      repos: [
        {
          index: 0,
          path: WEB,
          name: 'web',
          managed: true,
          entry: expect.objectContaining({ path: WEB, default_chain: 'quick-task', enabled: true }),
          resolved: {
            steering: ['project-standards'],
            deny_tools: ['WebFetch', 'Bash'],
            models: { claude: 'opus' },
            ...DEFAULTS,
            budget_usd: 5,
            allowed_harnesses: ['claude'],
          },
          sources: {
            steering: 'repo',
            deny_tools: 'repo',
            models: 'repo',
            ...allFrom('default'),
            budget_usd: 'repo',
            allowed_harnesses: 'repo',
          },
        },
      ],
      detected: [
        {
          index: 1,
          path: LIB,
          name: 'lib',
          managed: false,
          entry: { path: LIB, managed: false },
          resolved: { steering: [], deny_tools: [], models: {}, ...DEFAULTS },
          sources: { steering: 'library', deny_tools: 'default', models: 'default', ...allFrom('default') },
        },
      ],
    });
  });

  it("answers policy.yaml's sandbox for a repo that sets none, and the repo's own where it sets one", () => {
    const policy = 'sandbox: {kind: bubblewrap, network: {allow: [a.test]}}\n';
    const yaml = 'repos:\n  - path: /plain\n  - path: /own\n    sandbox: {kind: none}\n';
    const [plain, own] = result(yaml, yaml, facts(), { 'policy.yaml': policy }).resolved!.repos;
    expect([plain!.index, plain!.resolved.sandbox, plain!.sources.sandbox]).toEqual([
      0,
      { kind: 'bubblewrap', network: { allow: ['a.test'] } },
      'default',
    ]);
    expect([own!.index, own!.resolved.sandbox, own!.sources.sandbox]).toEqual([1, { kind: 'none' }, 'repo']);
  });

  it('takes what the repo leaves unset from policy.yaml defaults, at the work-item level for a cap', () => {
    const policy = `defaults:
  max_attempts: 2
  allowed_tools: [Read, Edit]
  escalation_harness: codex
  work_item:
    budget_usd: 8
    token_budget: 100000
`;
    const yaml = `repos:
  - path: /src/api
    policy:
      token_budget: 5000
      allowed_tools: [Read, Bash]
      sandbox:
        kind: docker
        image: node:20
        unrestricted_network: true
`;
    const [api] = result(yaml, yaml, facts(), { 'policy.yaml': policy }).resolved!.repos;
    expect(api!.resolved).toEqual({
      steering: [],
      deny_tools: [],
      models: {},
      ...DEFAULTS,
      budget_usd: 8,
      token_budget: 5000,
      max_attempts: 2,
      escalation_harness: 'codex',
      // A repo narrows the instance's tool list; it cannot add to it.
      allowed_tools: ['Read'],
      sandbox: { kind: 'docker', image: 'node:20', unrestricted_network: true },
    });
    expect(api!.sources).toMatchObject({
      budget_usd: 'default',
      token_budget: 'repo',
      max_attempts: 'default',
      allowed_tools: 'repo',
      sandbox: 'repo',
    });
  });

  it('leaves out of steering a name the library lacks (a problem says so)', () => {
    const yaml = 'repos:\n  - path: /a\n    steering: [project-standards, nope]\n';
    const r = result(yaml, yaml);
    expect(r.resolved!.repos[0]!.resolved.steering).toEqual(['project-standards']);
    expect(r.problems).toEqual([
      {
        path: 'repos.0',
        field: 'steering.1',
        message: 'repo `/a`: steering `nope` is not in library.yaml `steering:`',
        file: F,
        line: 3,
        col: 35,
        repo: '/a',
      },
    ]);
  });
});

describe('problems', () => {
  it("names the repo of a problem inside an entry, and null for the file's own", () => {
    const r = result('repos:\n  - path: /a\n    enabled: 3\nextra: 1\n', null);
    expect(r.problems).toEqual([
      {
        path: 'repos.0',
        field: 'enabled',
        message: 'expected true or false, got number `3`',
        file: F,
        line: 3,
        col: 14,
        repo: '/a',
      },
      expect.objectContaining({ field: 'extra', repo: null }),
    ]);
  });

  it('reports a path that is not a directory, not a git repository, or has no commit', () => {
    const yaml = 'repos:\n  - path: /gone\n  - path: /plain\n  - path: /fresh\n  - path: /ok\n';
    const f = facts({ paths: { '/gone': 'not_dir', '/plain': 'not_git', '/fresh': 'git_no_commit' } });
    expect(result(yaml, null, f).problems).toEqual([
      {
        path: 'repos.0',
        field: 'path',
        message: 'repo `/gone` is not a directory on this machine',
        file: F,
        line: 2,
        col: 11,
        repo: '/gone',
      },
      {
        path: 'repos.1',
        field: 'path',
        message: 'repo `/plain` is not a git repository',
        file: F,
        line: 3,
        col: 11,
        repo: '/plain',
      },
      {
        path: 'repos.2',
        field: 'path',
        message: 'repo `/fresh` is a git repository with no commit yet; commit once before work runs here',
        file: F,
        line: 4,
        col: 11,
        repo: '/fresh',
      },
    ]);
  });

  it('reports a default_chain naming no chain of the library', () => {
    expect(result('repos:\n  - path: /a\n    default_chain: quick_task\n').problems).toEqual([
      {
        path: 'repos.0',
        field: 'default_chain',
        message: 'repo `/a`: default_chain `quick_task` names no chain; did you mean `quick-task`?',
        file: F,
        line: 3,
        col: 20,
        repo: '/a',
      },
    ]);
  });

  it("reports a policy that relaxes the instance's maxima: caps, loop limits, and tool or harness lists", () => {
    const policy = `maxima:
  max_attempts: 3
  allowed_tools: [Read]
  allowed_harnesses: [claude, codex]
  work_item:
    budget_usd: 20
`;
    const yaml = `repos:
  - path: /a
    policy:
      budget_usd: 25
      max_attempts: 4
      allowed_tools: [Read, Bash, Edit]
      allowed_harnesses: [claude, gemini]
`;
    const at = (field: string, message: string, line: number, col: number) => ({
      path: 'repos.0',
      field,
      message: `repo \`/a\`: ${message}`,
      file: F,
      line,
      col,
      repo: '/a',
    });
    expect(result(yaml, yaml, facts(), { 'policy.yaml': policy }).problems).toEqual([
      at(
        'policy.budget_usd',
        "policy.budget_usd 25 relaxes policy.yaml maxima.work_item.budget_usd 20; a repo's policy may only tighten",
        4,
        19,
      ),
      at(
        'policy.max_attempts',
        "policy.max_attempts 4 relaxes policy.yaml maxima.max_attempts 3; a repo's policy may only tighten",
        5,
        21,
      ),
      at(
        'policy.allowed_tools',
        "policy.allowed_tools names `Bash`, `Edit`, which policy.yaml maxima.allowed_tools does not allow; a repo's policy may only tighten",
        6,
        22,
      ),
      at(
        'policy.allowed_harnesses',
        "policy.allowed_harnesses names `gemini`, which policy.yaml maxima.allowed_harnesses does not allow; a repo's policy may only tighten",
        7,
        26,
      ),
    ]);
  });

  it('reports a removed repo while it has items not ended, and not once they ended', () => {
    const kept = REPOS_YAML.replace(/  - path: \/src\/web #[\s\S]*?(?=  - path: \/src\/web\/vendor)/, '');
    expect(kept).not.toContain('- path: /src/web #');
    expect(result(kept, REPOS_YAML, facts({ openItems: { [WEB]: 2 } })).problems).toEqual([
      {
        path: 'repos',
        field: null,
        message:
          'repo `/src/web` has 2 work items not ended; it can be removed once they are completed or abandoned',
        file: F,
        line: null,
        col: null,
        repo: WEB,
      },
    ]);
    expect(result(kept, REPOS_YAML, facts({ openItems: { [WEB]: 0, [LIB]: 4 } })).problems).toEqual([]);
    // Deleting the whole file removes every repo.
    expect(result(null, REPOS_YAML, facts({ openItems: { [LIB]: 1 } })).problems).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/^repo `\/src\/web\/vendor\/lib` has 1 work item not ended/),
        repo: LIB,
      }),
    ]);
  });
});

describe('changes and impact', () => {
  it('has one row per entry changed, added or removed, and the items not ended of each repo reached', () => {
    const drafted = REPOS_YAML.replace('enabled: true', 'enabled: false')
      .replace('    test_command: npm test\n', '')
      .replace(/  - path: \/src\/web\/vendor\/lib\n.*\n/, '  - path: /src/api\n    name: api\n');
    const r = result(drafted, REPOS_YAML, facts({ openItems: { [WEB]: 2, '/src/api': 1 } }));
    expect(r.changes).toEqual([
      {
        path: WEB,
        kind: 'change',
        summary: 'enabled: true -> false; test_command: npm test -> not set',
        fields: ['enabled', 'test_command'],
        file: F,
      },
      { path: '/src/api', kind: 'add', summary: 'repo added', fields: ['path', 'name'], file: F },
      { path: LIB, kind: 'remove', summary: 'repo removed', fields: ['path', 'managed'], file: F },
    ]);
    expect(r.impact).toEqual({ running: { [WEB]: 2, [LIB]: 0 } });
  });

  it('keeps the file-level row only when no entry changed', () => {
    const withWs = `${REPOS_YAML}workspaces:\n  shop:\n    root: web\n`;
    const r = result(withWs);
    expect(r.changes).toEqual([
      { path: F, kind: 'change', summary: 'repos.yaml: workspaces changed', fields: ['workspaces'], file: F },
    ]);
    expect(r.impact).toEqual({ running: {} });
    // A comment alone changes nothing.
    expect(result(REPOS_YAML.replace('# the web app', '# the shop')).changes).toEqual([]);
  });

  it('has no rows when repos.yaml is not in the draft', () => {
    const i = input(F, REPOS_YAML, REPOS_YAML);
    delete i.after[F];
    delete i.before[F];
    expect(reposResult(i).changes).toEqual([]);
  });
});
