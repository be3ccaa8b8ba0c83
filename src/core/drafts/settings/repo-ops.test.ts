import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { facts, LIB, REPOS_YAML, runOps, WEB, workspace } from '../../../../test/helpers/repos-settings.js';
import { OpRefused } from '../ops/context.js';
import { REPO_OPS } from './repo-ops.js';

type Raw = { op: string } & Record<string, unknown>;

/** Runs ops on a repos draft and answers the repos.yaml text they leave. */
function after(ops: Raw[], reposYaml: string | null = REPOS_YAML, f = facts()): string {
  const ws = workspace('repos', reposYaml === undefined ? {} : { 'repos.yaml': reposYaml }, f);
  runOps(ws, REPO_OPS, ops);
  const text = ws.changedTexts()['repos.yaml'];
  if (text === undefined) throw new Error('repos.yaml unchanged');
  return text;
}

function refusal(ops: Raw[], reposYaml: string | null = REPOS_YAML, f = facts()): string {
  const ws = workspace('repos', { 'repos.yaml': reposYaml }, f);
  try {
    runOps(ws, REPO_OPS, ops);
  } catch (e) {
    if (e instanceof OpRefused) return e.detail;
    throw e;
  }
  throw new Error('not refused');
}

const entries = (text: string): unknown => parse(text).repos;

describe('add_repo', () => {
  it('adds a disabled, managed entry named after its folder, keeping the seeded comments', () => {
    const ws = workspace('repos');
    expect(runOps(ws, REPO_OPS, [{ op: 'add_repo', path: '/home/me/src/api/' }])).toEqual([undefined]);
    const text = ws.changedTexts()['repos.yaml']!;
    expect(entries(text)).toEqual([
      { path: '/home/me/src/api/', name: 'api', default_chain: 'default', enabled: false, managed: true },
    ]);
    expect(text).toContain('# Connected repositories. Connecting a repository from the board or the CLI');
  });

  it('lays `fields` over the entry: null clears a default, the older chain key is written as default_chain', () => {
    const text = after([
      {
        op: 'add_repo',
        path: '/src/api',
        fields: { name: 'API', default_chain_template: 'quick-task', enabled: null, test_command: '' },
      },
    ]);
    expect(entries(text)).toEqual([
      expect.anything(),
      expect.anything(),
      { path: '/src/api', name: 'API', default_chain: 'quick-task', managed: true, test_command: '' },
    ]);
    expect(text).toContain('- path: /src/web # the web app');
  });

  it('creates repos.yaml when there is none, and does not probe the path (a non-git path is a problem later)', () => {
    const text = after(
      [{ op: 'add_repo', path: '/tmp/plain' }],
      null,
      facts({ paths: { '/tmp/plain': 'not_git' } }),
    );
    expect(parse(text)).toEqual({
      repos: [{ path: '/tmp/plain', name: 'plain', default_chain: 'default', enabled: false, managed: true }],
    });
  });

  it('refuses a path already in the draft, a repository with no commit, and keys an entry does not take', () => {
    expect(refusal([{ op: 'add_repo', path: WEB }])).toBe('repo `/src/web` is already in repos.yaml');
    expect(refusal([{ op: 'add_repo', path: LIB }])).toBe(
      'repo `/src/web/vendor/lib` is already in repos.yaml',
    );
    expect(
      refusal(
        [{ op: 'add_repo', path: '/src/new' }],
        REPOS_YAML,
        facts({ paths: { '/src/new': 'git_no_commit' } }),
      ),
    ).toBe('repo `/src/new` is a git repository with no commit yet; commit once, then add it');
    expect(refusal([{ op: 'add_repo', path: '/src/new', fields: { path: '/elsewhere' } }])).toBe(
      "fields.path: a repo's path cannot change; add the new path instead",
    );
    expect(refusal([{ op: 'add_repo', path: '/src/new', fields: { colour: 'red' } }])).toBe(
      'fields.colour: `colour` is not a key of a repos.yaml entry',
    );
  });

  it('refuses a second add of the same path in one request', () => {
    expect(
      refusal([
        { op: 'add_repo', path: '/src/new' },
        { op: 'add_repo', path: '/src/new' },
      ]),
    ).toBe('repo `/src/new` is already in repos.yaml');
  });

  it('refuses a file whose top is not a mapping or whose repos is not a list', () => {
    expect(refusal([{ op: 'add_repo', path: '/a' }], '- 1\n')).toBe(
      'repos.yaml is not a mapping; fix the file first',
    );
    expect(refusal([{ op: 'add_repo', path: '/a' }], 'repos: {}\n')).toBe(
      '`repos` in repos.yaml is not a list; fix the file first',
    );
  });
});

describe('set_repo', () => {
  it('sets keys, clears a key sent as null, and keeps comments', () => {
    const text = after([
      { op: 'set_repo', path: WEB, patch: { enabled: false, test_command: null, policy: { budget_usd: 3 } } },
    ]);
    expect(entries(text)).toEqual([
      {
        path: WEB,
        name: 'web',
        default_chain: 'quick-task',
        enabled: false,
        steering: ['project-standards'],
        deny_tools: ['WebFetch'],
        models: { claude: 'opus' },
        policy: { budget_usd: 3 },
        managed: true,
      },
      { path: LIB, managed: false },
    ]);
    expect(text).toContain('# Connected repositories.');
    expect(text).toContain('- path: /src/web # the web app');
  });

  it('marks a detected entry managed, as PATCH /api/repos does', () => {
    const text = after([{ op: 'set_repo', path: LIB, patch: { name: 'lib' } }]);
    expect(entries(text)).toEqual([expect.anything(), { path: LIB, managed: true, name: 'lib' }]);
  });

  it('writes the older default_chain_template as default_chain and drops retired keys, as the route rewrites an entry', () => {
    const yaml = 'repos:\n  - path: /a\n    default_chain_template: quick-task\n    submodules: true\n';
    expect(entries(after([{ op: 'set_repo', path: '/a', patch: {} }], yaml))).toEqual([
      { path: '/a', default_chain: 'quick-task', managed: true },
    ]);
    expect(
      entries(after([{ op: 'set_repo', path: '/a', patch: { default_chain_template: 'default' } }], yaml)),
    ).toEqual([{ path: '/a', default_chain: 'default', managed: true }]);
  });

  it('refuses a path not in the draft, a change of path, and a key an entry does not take', () => {
    expect(refusal([{ op: 'set_repo', path: '/nope', patch: { name: 'x' } }])).toBe(
      'repo `/nope` is not in repos.yaml',
    );
    expect(refusal([{ op: 'set_repo', path: WEB, patch: { path: '/src/web2' } }])).toBe(
      "patch.path: a repo's path cannot change; add the new path instead",
    );
    expect(refusal([{ op: 'set_repo', path: WEB, patch: { nmae: 'x' } }])).toBe(
      'patch.nmae: `nmae` is not a key of a repos.yaml entry',
    );
  });
});

describe('remove_repo', () => {
  it('removes the entry (items not ended are a problem of the result, not a refusal)', () => {
    const text = after([{ op: 'remove_repo', path: WEB }], REPOS_YAML, facts({ openItems: { [WEB]: 2 } }));
    expect(entries(text)).toEqual([{ path: LIB, managed: false }]);
  });

  it('refuses a path not in the draft', () => {
    expect(refusal([{ op: 'remove_repo', path: '/nope' }])).toBe('repo `/nope` is not in repos.yaml');
    expect(
      refusal([
        { op: 'remove_repo', path: WEB },
        { op: 'remove_repo', path: WEB },
      ]),
    ).toBe('repo `/src/web` is not in repos.yaml');
  });
});

describe('connect_detected', () => {
  it('makes a detected entry managed', () => {
    const text = after([{ op: 'connect_detected', path: LIB }]);
    expect(entries(text)).toEqual([expect.anything(), { path: LIB, managed: true }]);
    expect(text).toContain('managed: true # found by Jig');
  });

  it('refuses a path not in the draft and an entry that is not detected', () => {
    expect(refusal([{ op: 'connect_detected', path: '/nope' }])).toBe('repo `/nope` is not in repos.yaml');
    expect(refusal([{ op: 'connect_detected', path: WEB }])).toBe(
      'repo `/src/web` is not a detected entry (`managed: false`); it is already connected',
    );
  });
});

describe('parse', () => {
  const parseRefusal = (raw: Raw): string => {
    try {
      REPO_OPS.parse(raw);
    } catch (e) {
      if (e instanceof OpRefused) return e.detail;
      throw e;
    }
    throw new Error('not refused');
  };

  it('answers each op as sent', () => {
    const add: Raw = { op: 'add_repo', path: '/a' };
    const set: Raw = { op: 'set_repo', path: '/a', patch: { name: null } };
    expect(REPO_OPS.parse(add)).toEqual({ op: 'add_repo', path: '/a' });
    expect(REPO_OPS.parse(set)).toEqual({
      op: 'set_repo',
      path: '/a',
      patch: { name: null },
    });
  });

  it('refuses an unknown op, a missing or mistyped field and an unknown field, naming it', () => {
    expect(parseRefusal({ op: 'rename_repo' })).toBe(
      'op: unknown op `rename_repo` on the repos draft (add_repo, set_repo, remove_repo, connect_detected)',
    );
    expect(parseRefusal({ op: 'remove_repo' })).toMatch(/^path: /);
    expect(parseRefusal({ op: 'set_repo', path: '/a', patch: [] })).toMatch(/^patch: /);
    expect(parseRefusal({ op: 'add_repo', path: 3 })).toMatch(/^path: /);
    expect(parseRefusal({ op: 'connect_detected', path: '/a', managed: true })).toMatch(/\(managed\)$/);
  });
});
