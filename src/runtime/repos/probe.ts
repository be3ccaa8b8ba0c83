import { existsSync } from 'node:fs';
import { memberName, parseGitmodules } from '../../core/workspaces/gitmodules.js';
import type { ProbeAnswer } from '../../contract/repos.js';
import { forgeOfHost, parseRemote } from '../../core/forge/locate.js';
import { basename, join } from 'node:path';
import { JigError } from '../../contract/errors.js';
import { listInside, readInside, type Refused } from '../fs/safe-read.js';
import { repoFacts } from '../git/git.js';

export interface Proposal {
  value: string;
  reason: string;
}

export interface ProbeResult {
  path: string;
  is_git: boolean;
  has_commit: boolean;
  name: string;
  default_branch: string | null;
  forge: Proposal | null;
  project: Proposal | null;
  test_command: Proposal | null;
  setup_command: Proposal | null;
  /** Members' `connected` is filled by the repos service, which knows what is connected. */
  workspace: ProbeAnswer['workspace'];
}

/** The workspace the submodules of `.gitmodules` make, with this repository as its root. */
function workspaceOf(top: string): ProbeAnswer['workspace'] {
  const text = read(top, '.gitmodules');
  const subs = text === null ? [] : parseGitmodules(text);
  if (subs.length === 0) return null;
  const taken = new Set<string>();
  const members = subs.map((s) => {
    const name = memberName(s.name, taken);
    taken.add(name);
    const repo_path = join(top, s.path);
    return {
      name,
      submodule: s.name,
      path: s.path,
      repo_path,
      checked_out: has(top, join(s.path, '.git')),
      connected: false,
    };
  });
  return {
    name: memberName(basename(top), new Set()),
    reason: `.gitmodules declares ${subs.length} submodule${subs.length === 1 ? '' : 's'}`,
    members,
  };
}

const MAX_BYTES = 1_000_000;
const MAX_WORKFLOWS = 200;

/**
 * A FIFO, a device, a socket or a link out of the repository where the probe reads would hang the
 * server or read elsewhere: the probe refuses the repository, naming the file. A file that is
 * missing, unreadable or over the cap simply proposes nothing, as any missing file does.
 */
function unsafe(top: string, file: string, r: Refused): JigError | null {
  if (r.reason === 'missing' || r.reason === 'too_large' || r.reason === 'unreadable') return null;
  return new JigError('repo_file_unsafe', { path: top, file, reason: r.detail }, { file });
}

function read(top: string, file: string): string | null {
  const r = readInside(top, file, { maxBytes: MAX_BYTES });
  if (r.ok) return r.bytes.toString('utf8');
  const err = unsafe(top, file, r);
  if (err) throw err;
  return null;
}

/** Existence only: a stat neither blocks on a FIFO nor reads a byte, so it needs no guard. */
function has(top: string, file: string): boolean {
  return existsSync(join(top, file));
}

/** A task runner's own `test` target encodes how the project wants its tests run: it wins. */
function taskRunnerTest(top: string): Proposal | null {
  const just = read(top, 'justfile') ?? read(top, 'Justfile') ?? read(top, '.justfile');
  if (just && /^test\b[^:\n]*:/m.test(just))
    return { value: 'just test', reason: 'justfile has a `test` recipe' };
  const make = read(top, 'Makefile') ?? read(top, 'makefile') ?? read(top, 'GNUmakefile');
  if (make && /^test\s*:/m.test(make)) return { value: 'make test', reason: 'Makefile has a `test` target' };
  const task = read(top, 'Taskfile.yml') ?? read(top, 'Taskfile.yaml');
  if (task && /^\s{2,}test\s*:/m.test(task))
    return { value: 'task test', reason: 'Taskfile has a `test` task' };
  const mise = read(top, 'mise.toml') ?? read(top, '.mise.toml');
  if (mise && /^\[tasks\.test\]/m.test(mise))
    return { value: 'mise run test', reason: 'mise.toml has a `test` task' };
  return null;
}

interface NodeKit {
  run: string;
  install: string;
  lock: string;
}

function nodeKit(top: string): NodeKit {
  if (has(top, 'pnpm-lock.yaml'))
    return { run: 'pnpm', install: 'pnpm install --frozen-lockfile', lock: 'pnpm-lock.yaml' };
  if (has(top, 'yarn.lock'))
    return { run: 'yarn', install: 'yarn install --frozen-lockfile', lock: 'yarn.lock' };
  if (has(top, 'bun.lockb') || has(top, 'bun.lock'))
    return { run: 'bun', install: 'bun install --frozen-lockfile', lock: 'bun.lock' };
  if (has(top, 'package-lock.json')) return { run: 'npm', install: 'npm ci', lock: 'package-lock.json' };
  return { run: 'npm', install: 'npm install', lock: '' };
}

function ecosystem(top: string): { test: Proposal | null; setup: Proposal | null } {
  const pkgText = read(top, 'package.json');
  if (pkgText) {
    const kit = nodeKit(top);
    let scripts: Record<string, string> = {};
    try {
      scripts = (JSON.parse(pkgText) as { scripts?: Record<string, string> }).scripts ?? {};
    } catch {
      // An unreadable package.json proposes nothing for tests; setup still installs.
    }
    const setup = {
      value: kit.install,
      // Where no lockfile pins the versions, the install writes one: said, so nobody is surprised by
      // it (Jig keeps it out of the item's change, docs/chains.md), and how to get `npm ci` instead.
      reason: kit.lock
        ? `package.json with ${kit.lock}`
        : "package.json without a lockfile: npm install writes package-lock.json in each item's worktree (kept out of the item's change); commit a lockfile to have npm ci proposed",
    };
    const placeholder = /no test specified/.test(scripts.test ?? '');
    const test =
      scripts.test && !placeholder
        ? { value: `${kit.run} test`, reason: 'package.json has a `test` script' }
        : null;
    return { test, setup };
  }
  if (has(top, 'Cargo.toml')) {
    return {
      test: { value: 'cargo test', reason: 'Cargo.toml' },
      setup: { value: 'cargo fetch', reason: 'Cargo.toml' },
    };
  }
  if (has(top, 'go.mod')) {
    return {
      test: { value: 'go test ./...', reason: 'go.mod' },
      setup: { value: 'go mod download', reason: 'go.mod' },
    };
  }
  if (has(top, 'pyproject.toml') || has(top, 'requirements.txt') || has(top, 'setup.py')) {
    const py = read(top, 'pyproject.toml') ?? '';
    const usesPytest =
      /pytest/.test(py) || has(top, 'pytest.ini') || has(top, 'conftest.py') || has(top, 'tests');
    if (has(top, 'uv.lock')) {
      return {
        test: usesPytest ? { value: 'uv run pytest', reason: 'uv.lock and pytest' } : null,
        setup: { value: 'uv sync', reason: 'uv.lock' },
      };
    }
    if (has(top, 'poetry.lock')) {
      return {
        test: usesPytest ? { value: 'poetry run pytest', reason: 'poetry.lock and pytest' } : null,
        setup: { value: 'poetry install', reason: 'poetry.lock' },
      };
    }
    return {
      test: usesPytest ? { value: 'python -m pytest', reason: 'Python project using pytest' } : null,
      setup: has(top, 'requirements.txt')
        ? { value: 'pip install -r requirements.txt', reason: 'requirements.txt' }
        : { value: 'pip install -e .', reason: 'pyproject.toml' },
    };
  }
  if (has(top, 'Gemfile')) {
    return {
      test: has(top, 'spec')
        ? { value: 'bundle exec rspec', reason: 'Gemfile and spec/' }
        : { value: 'bundle exec rake test', reason: 'Gemfile' },
      setup: { value: 'bundle install', reason: 'Gemfile' },
    };
  }
  if (has(top, 'pom.xml')) {
    return {
      test: { value: 'mvn -q test', reason: 'pom.xml' },
      setup: { value: 'mvn -q dependency:resolve', reason: 'pom.xml' },
    };
  }
  if (has(top, 'gradlew')) {
    return {
      test: { value: './gradlew test', reason: 'Gradle wrapper' },
      setup: { value: '', reason: 'Gradle fetches on first build' },
    };
  }
  return { test: null, setup: null };
}

/** Mentions the CI file that runs the same command, which makes the proposal more trustworthy. */
function ciConfirms(top: string, command: string): string | null {
  const files = ['.gitlab-ci.yml', ...listDir(top, '.github/workflows').map((f) => `.github/workflows/${f}`)];
  for (const f of files) {
    const text = read(top, f);
    if (text && text.includes(command)) return f;
  }
  return null;
}

function listDir(top: string, dir: string): string[] {
  const r = listInside(top, dir, { maxEntries: MAX_WORKFLOWS });
  if (!r.ok) {
    const err = unsafe(top, dir, r);
    if (err) throw err;
    return [];
  }
  return r.names.filter((f) => f.endsWith('.yml') || f.endsWith('.yaml')).sort();
}

export function forgeFromRemote(url: string | null): { forge: Proposal | null; project: Proposal | null } {
  const remote = parseRemote(url);
  const forge = remote ? forgeOfHost(remote.host) : null;
  if (!remote || !forge) return { forge: null, project: null };
  const proposal = { value: forge, reason: `origin is ${remote.host}` };
  // GitHub and Gitea paths are owner/name, read from origin at each use; a GitLab path is kept.
  if (forge !== 'gitlab') return { forge: proposal, project: null };
  return { forge: proposal, project: { value: remote.path, reason: 'path of origin on GitLab' } };
}

/** Reads a repository and proposes how to connect it. Reads files only; runs nothing of the repo's. */
export async function probeRepo(path: string): Promise<ProbeResult> {
  const facts = await repoFacts(path);
  if (!facts) {
    return {
      path,
      is_git: false,
      has_commit: false,
      name: basename(path),
      default_branch: null,
      forge: null,
      project: null,
      test_command: null,
      setup_command: null,
      workspace: null,
    };
  }
  const { top } = facts;
  const eco = ecosystem(top);
  let test = taskRunnerTest(top) ?? eco.test;
  if (test) {
    const ci = ciConfirms(top, test.value);
    if (ci) test = { ...test, reason: `${test.reason}; ${ci} runs it too` };
  }
  const { forge, project } = forgeFromRemote(facts.origin);
  return {
    path: top,
    is_git: true,
    has_commit: facts.hasCommit,
    name: basename(top),
    default_branch: facts.branch,
    forge,
    project,
    test_command: test,
    setup_command: eco.setup ?? { value: '', reason: 'no dependency manifest found: nothing to install' },
    workspace: workspaceOf(top),
  };
}
