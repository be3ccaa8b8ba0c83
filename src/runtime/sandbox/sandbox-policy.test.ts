import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RepoEntry } from '../../contract/config/repos.js';
import { chainSandbox } from '../../core/policy/sandbox.js';
import { forHarness, sandboxFor } from './sandbox-policy.js';

// A PATH holding only a stand-in `bwrap` (the policy only looks the program up; nothing runs here).
const bin = mkdtempSync(join(tmpdir(), 'jig-sandbox-policy-'));
for (const p of ['bwrap', 'podman', 'docker']) symlinkSync('/bin/true', join(bin, p));
afterAll(() => rmSync(bin, { recursive: true, force: true }));

const repo = (sandbox: RepoEntry['sandbox']): RepoEntry => ({ path: '/r', sandbox });
const choose = (
  r: RepoEntry,
  o: { agent?: boolean; phase?: 'install' | 'runtime'; path?: string; uid?: number } = {},
) =>
  sandboxFor({
    ...(o.uid !== undefined ? { uid: o.uid } : {}),
    repo: r,
    phase: o.phase ?? 'runtime',
    agent: o.agent ?? false,
    jigPort: 8765,
    worktrees: ['/w'],
    path: o.path ?? bin,
  });

describe('sandboxFor', () => {
  it('no sandbox, or kind none: the task runs as the server does', () => {
    expect(choose({ path: '/r' })).toEqual({ ok: true, sandbox: null });
    expect(choose(repo({ kind: 'none' }))).toEqual({ ok: true, sandbox: null });
  });

  it('bubblewrap: the lists of the phase added to the shared ones', () => {
    const s = repo({
      kind: 'bubblewrap',
      network: {
        allow: ['a.test'],
        deny: ['b.test'],
        install: { allow: ['registry.npmjs.org'] },
        runtime: { allow: ['api.test'] },
      },
    });
    expect(choose(s, { phase: 'install' })).toEqual({
      ok: true,
      sandbox: {
        kind: 'bubblewrap',
        program: join(bin, 'bwrap'),
        image: null,
        resources: null,
        network: {
          mode: 'proxied',
          allow: ['a.test', 'registry.npmjs.org'],
          deny: ['b.test'],
          jigPort: 8765,
          credentials: [],
        },
        worktrees: ['/w'],
      },
    });
    expect(choose(s)).toMatchObject({ sandbox: { network: { allow: ['a.test', 'api.test'] } } });
    // Without a kind and an image, bubblewrap.
    expect(choose(repo({ unrestricted_network: true }))).toMatchObject({
      ok: true,
      sandbox: { network: { mode: 'open', jigPort: 8765 } },
    });
  });

  it('an agent under a sandbox with no network policy is refused; a command there reaches nothing', () => {
    expect(choose(repo({ kind: 'bubblewrap' }), { agent: true })).toEqual({
      ok: false,
      reason:
        'repo /r has a sandbox with no network: policy; set sandbox.network (allow lists) or unrestricted_network: true in repos.yaml',
    });
    expect(choose(repo({ kind: 'bubblewrap' }))).toMatchObject({
      ok: true,
      sandbox: { network: { mode: 'proxied', allow: [], deny: [] } },
    });
  });

  it('never runs unjailed what asked for a jail it cannot have', () => {
    expect(choose(repo({ kind: 'bubblewrap' }), { path: '/nonexistent' })).toEqual({
      ok: false,
      reason:
        'repo /r asks for a bubblewrap sandbox, and bwrap is not installed on this machine (Debian: apt-get install bubblewrap); Jig will not run the task unsandboxed',
    });
    expect(choose(repo({ image: 'node:20' }), { path: '/nonexistent' })).toEqual({
      ok: false,
      reason:
        'repo /r asks for a docker sandbox, and docker is not installed on this machine; Jig will not run the task unsandboxed',
    });
    expect(choose(repo({ kind: 'bubblewrap', resources: { memory: '1g' } }))).toEqual({
      ok: false,
      reason:
        'repo /r: sandbox.resources cannot be enforced by a bubblewrap sandbox; remove them or use kind: podman',
    });
  });
});

describe('sandboxFor, a container kind', () => {
  it('podman: the image and limits go with the jail', () => {
    expect(
      choose(repo({ kind: 'podman', image: 'localhost/dev:1', resources: { pids: 64 } }), { uid: 0 }),
    ).toEqual({
      ok: true,
      sandbox: {
        kind: 'podman',
        program: join(bin, 'podman'),
        image: 'localhost/dev:1',
        resources: { pids: 64 },
        network: { mode: 'proxied', allow: [], deny: [], jigPort: 8765, credentials: [] },
        worktrees: ['/w'],
      },
    });
  });

  it('no image, or a docker relay a non-root server cannot make: refused, never run unjailed', () => {
    expect(choose(repo({ kind: 'podman' }))).toEqual({
      ok: false,
      reason:
        'repo /r asks for a podman sandbox, with no image: name one with sandbox.image; Jig will not run the task unsandboxed',
    });
    expect(choose(repo({ kind: 'docker', image: 'x' }), { uid: 1000 })).toEqual({
      ok: false,
      reason:
        "repo /r asks for a docker sandbox, and a docker container's egress is relayed into its network namespace, which takes a server running as root (rootless podman works: kind: podman); Jig will not run the task unsandboxed",
    });
    expect(
      choose(repo({ kind: 'docker', image: 'x', unrestricted_network: true }), { uid: 1000 }),
    ).toMatchObject({
      ok: true,
      sandbox: { kind: 'docker', network: { mode: 'open' } },
    });
  });
});

describe("a chain's sandbox", () => {
  const jail = { kind: 'bubblewrap' as const, network: { allow: ['a.test'] } };
  const chain = (nodePolicy?: unknown, chainPolicy?: unknown) => ({
    ...(chainPolicy ? { policy: chainPolicy } : {}),
    nodes: [
      {
        id: 'build',
        kind: 'exec',
        ...(nodePolicy ? { policy: nodePolicy } : {}),
        tasks: [{ id: 't', kind: 'subprocess', run: 'true' }],
      },
    ],
  });

  it("is the broadest scope on the task's path that sets one; the setup command gets the chain's own", () => {
    expect(chainSandbox(chain({ sandbox: jail }), 'build.main.t')).toEqual({
      sandbox: jail,
      where: '`build`',
    });
    expect(chainSandbox(chain({ sandbox: jail }), 'setup')).toBeNull();
    expect(chainSandbox(chain(undefined, { sandbox: jail }), 'setup')).toEqual({
      sandbox: jail,
      where: "the chain's policy",
    });
    expect(chainSandbox(chain(), 'build.main.t')).toBeNull();
  });

  it("applies where the repo has none, may repeat the repo's, and may not change it", () => {
    const c = { sandbox: jail, where: '`build`' };
    const run = (r: RepoEntry) =>
      sandboxFor({
        repo: r,
        chain: c,
        phase: 'runtime',
        agent: false,
        jigPort: null,
        worktrees: [],
        path: bin,
      });
    expect(run({ path: '/r' })).toMatchObject({ ok: true, sandbox: { network: { allow: ['a.test'] } } });
    expect(run(repo(jail))).toMatchObject({ ok: true, sandbox: { network: { allow: ['a.test'] } } });
    expect(run(repo({ kind: 'bubblewrap', network: { allow: ['b.test'] } }))).toEqual({
      ok: false,
      reason:
        "the chain's sandbox (set by `build`) differs from the one repo /r runs in; a sandbox is set once, and a chain may only repeat it",
    });
  });
});

describe('forHarness', () => {
  const login = { files: [{ path: '.claude/.credentials.json', env: 'CLAUDE_CONFIG_DIR' }] };
  it("adds the harness's hosts to a proxied jail's allow list and its login files to the jail", () => {
    const proxied = choose(repo({ network: { allow: ['a.test'] } }));
    if (!proxied.ok || !proxied.sandbox) throw new Error('expected a jail');
    const jail = forHarness(proxied.sandbox, { network: { requires: ['api.anthropic.com'] }, login });
    expect(jail).toEqual({
      ...proxied.sandbox,
      network: { ...proxied.sandbox.network, allow: ['a.test', 'api.anthropic.com'] },
      logins: login.files,
    });
  });

  it("leaves an open jail's network alone, and a harness with neither hosts nor login changes nothing", () => {
    const open = choose(repo({ unrestricted_network: true }));
    if (!open.ok || !open.sandbox) throw new Error('expected a jail');
    expect(forHarness(open.sandbox, { network: { requires: ['api.anthropic.com'] } })).toBe(open.sandbox);
    expect(forHarness(open.sandbox, { login })).toEqual({ ...open.sandbox, logins: login.files });
    const proxied = choose(repo({ network: { allow: [] } }));
    if (!proxied.ok || !proxied.sandbox) throw new Error('expected a jail');
    expect(forHarness(proxied.sandbox, {})).toBe(proxied.sandbox);
  });
});
