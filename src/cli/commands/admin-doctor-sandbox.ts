import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { PolicyFile } from '../../contract/config/policy.js';
import { ReposFile } from '../../contract/config/repos.js';
import type { Sandbox } from '../../contract/config/sandbox.js';
import { kindOf } from '../../core/sandbox/check.js';
import { configDirOf } from '../../client/local-access.js';
import type { DoctorRow } from './admin-doctor-row.js';

/** The line `jig admin doctor` proposes for policy.yaml when bubblewrap works and nothing is jailed. */
export const PROPOSED_DEFAULT =
  'sandbox: {kind: bubblewrap, network: {allow: []}}   # in policy.yaml; list hosts in allow (docs/sandbox.md)';

/** Whether bwrap starts a jail with its own network and PID namespaces here, or why not. */
export function bubblewrapWorks(): { ok: true } | { ok: false; why: string } {
  const r = spawnSync('bwrap', ['--ro-bind', '/', '/', '--unshare-net', '--unshare-pid', 'true'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (r.error) return { ok: false, why: 'bwrap is not installed (Debian: apt-get install bubblewrap)' };
  if (r.status !== 0)
    return { ok: false, why: `bwrap cannot start a jail here: ${r.stderr.trim().slice(0, 200)}` };
  return { ok: true };
}

/**
 * Whether podman or docker answers here (`info` reaches its storage or its daemon), or why not.
 * It runs no container: that needs an image, which is the repository's to name.
 */
export function containerRuntimeWorks(kind: string): { ok: true } | { ok: false; why: string } {
  const r = spawnSync(kind, ['info', '--format', '{{json .}}'], { encoding: 'utf8', timeout: 30_000 });
  if (r.error) return { ok: false, why: `${kind} is not installed` };
  if (r.status !== 0)
    return {
      ok: false,
      why: `${kind} does not answer: ${r.stderr.trim().split('\n').pop()?.slice(0, 200) ?? ''}`,
    };
  return { ok: true };
}

function read<T>(
  file: string,
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
): T | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const r = schema.safeParse(parse(text) ?? {});
    return r.success ? r.data : null;
  } catch {
    return null;
  }
}

/**
 * Which of the home's repositories run their tasks jailed (their own sandbox, else policy.yaml's),
 * against what this machine can run: a jail asked for and not runnable fails; nothing jailed where
 * bubblewrap works is a warning with the line to add.
 */
export function sandboxRow(): DoctorRow {
  const dir = configDirOf();
  const policy = read(join(dir, 'policy.yaml'), PolicyFile);
  const repos = read(join(dir, 'repos.yaml'), ReposFile)?.repos ?? [];
  const jail = (s: Sandbox | undefined): string | null =>
    s === undefined || kindOf(s) === 'none' ? null : kindOf(s);
  const kinds = repos.map((r) => jail(r.sandbox ?? r.policy?.sandbox ?? policy?.sandbox));
  const jailed = kinds.filter((k) => k !== null).length;
  const bwrap = bubblewrapWorks();
  const byDefault = jail(policy?.sandbox);
  const wanted = new Set([...kinds, byDefault].filter((k): k is string => k !== null));
  if (wanted.has('bubblewrap') && !bwrap.ok)
    return {
      check: 'sandbox',
      status: 'fail',
      detail: `repositories ask for a bubblewrap jail, and ${bwrap.why}: their items stop at the first task`,
      fix: 'install bubblewrap, or set their sandbox to kind: none',
    };
  for (const kind of [...wanted].filter((k) => k === 'podman' || k === 'docker')) {
    const rt = containerRuntimeWorks(kind);
    if (!rt.ok)
      return {
        check: 'sandbox',
        status: 'fail',
        detail: `repositories ask for a ${kind} sandbox, and ${rt.why}: their items stop at the first task`,
        fix: `install ${kind} (docs/sandbox.md), or set their sandbox to kind: bubblewrap`,
      };
  }
  if (repos.length === 0 ? byDefault !== null : jailed === repos.length)
    return {
      check: 'sandbox',
      status: 'pass',
      detail:
        repos.length === 0
          ? `policy.yaml jails every repository's tasks (${byDefault ?? ''})`
          : `every repository's tasks run in a jail (${[...wanted].join(', ')})`,
      fix: null,
    };
  if (!bwrap.ok)
    return {
      check: 'sandbox',
      status: 'warn',
      detail: `tasks run with the server's reach: no sandbox can start here (${bwrap.why})`,
      fix: 'install bubblewrap, then set a sandbox (docs/sandbox.md)',
    };
  return {
    check: 'sandbox',
    status: 'warn',
    detail:
      repos.length === 0
        ? "bubblewrap works here, and policy.yaml sets no default sandbox: tasks would run with the server's reach"
        : `${repos.length - jailed} of ${repos.length} repositories run their tasks with the server's reach; bubblewrap works here`,
    fix: PROPOSED_DEFAULT,
  };
}
