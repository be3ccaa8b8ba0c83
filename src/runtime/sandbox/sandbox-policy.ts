import type { PolicyFile } from '../../contract/config/policy.js';
import type { ProviderDefinition } from '../../contract/harness/provider.js';
import type { RepoEntry } from '../../contract/config/repos.js';
import type { ItemRecord } from '../../store/work-items.js';
import type { Sandbox } from '../../contract/config/sandbox.js';
import { chainSandbox, sameSandbox } from '../../core/policy/sandbox.js';
import { kindOf } from '../../core/sandbox/check.js';
import { resolveExecutable } from '../harness/installed.js';
import { unenforceable } from './limits.js';
import type { SandboxRequest, SandboxResources } from './request.js';

/** What a launch runs in: a jail, none, or a refusal (the item stops as a config problem). */
export type SandboxChoice = { ok: true; sandbox: SandboxRequest | null } | { ok: false; reason: string };

/**
 * The sandbox a repo's items run in: the repo's `sandbox`, else its `policy.sandbox` (the same by
 * rule), else policy.yaml's instance default.
 */
export function repoSandbox(repo: RepoEntry, policy: PolicyFile | null = null): Sandbox | undefined {
  return repo.sandbox ?? repo.policy?.sandbox ?? policy?.sandbox;
}

/**
 * How one task of a repo's item is jailed (docs/sandbox.md). `phase` picks the network lists: the
 * setup command's (`install`) or every other task's (`runtime`); `agent` applies the spec's rule that
 * an agent launch under a sandbox without a `network:` policy is refused unless the network is
 * declared unrestricted (a command there simply reaches nothing). Jig never runs a task unjailed
 * that asked for a jail.
 */
export function sandboxFor(o: {
  repo: RepoEntry;
  policy?: PolicyFile | null;
  /** The sandbox the item's chain sets for this task, and where. */
  chain?: { sandbox: Sandbox; where: string } | null;
  phase: 'install' | 'runtime';
  agent: boolean;
  jigPort: number | null;
  worktrees: string[];
  path?: string;
  /** The server's uid (tests): what decides rootless podman and a docker relay. */
  uid?: number;
}): SandboxChoice {
  const own = repoSandbox(o.repo, o.policy ?? null);
  // Set once: a chain may name the sandbox where the repo and instance do not, or repeat theirs.
  if (own !== undefined && o.chain && !sameSandbox(own, o.chain.sandbox))
    return {
      ok: false,
      reason: `the chain's sandbox (set by ${o.chain.where}) differs from the one repo ${o.repo.path} runs in; a sandbox is set once, and a chain may only repeat it`,
    };
  const s = own ?? o.chain?.sandbox;
  if (s === undefined) return { ok: true, sandbox: null };
  const kind = kindOf(s);
  if (kind === 'none') return { ok: true, sandbox: null };
  const where = `repo ${o.repo.path}`;
  // The spec's rule, whatever the kind: an agent's egress is declared or the launch is refused.
  if (!s.network && s.unrestricted_network !== true && o.agent)
    return {
      ok: false,
      reason: `${where} has a sandbox with no network: policy; set sandbox.network (allow lists) or unrestricted_network: true in repos.yaml`,
    };
  const jail = kind === 'bubblewrap' ? bubblewrapJail(s, where, o.path) : containerJail(s, kind, where, o);
  if (!jail.ok) return jail;
  const { program, image, resources } = jail;
  const base = { kind, program, image, resources, worktrees: o.worktrees };
  if (s.unrestricted_network === true)
    return {
      ok: true,
      sandbox: { ...base, network: { mode: 'open', jigPort: o.jigPort } },
    };
  const phase = s.network?.[o.phase];
  const network = {
    mode: 'proxied' as const,
    allow: [...(s.network?.allow ?? []), ...(phase?.allow ?? [])],
    deny: [...(s.network?.deny ?? []), ...(phase?.deny ?? [])],
    jigPort: o.jigPort,
    credentials: s.credentials ?? [],
  };
  return { ok: true, sandbox: { ...base, network } };
}

type Jail =
  | { ok: true; program: string; image: string | null; resources: SandboxResources | null }
  | { ok: false; reason: string };

function bubblewrapJail(s: Sandbox, where: string, path: string | undefined): Jail {
  const program = resolveExecutable('bwrap', path);
  if (program === null)
    return {
      ok: false,
      reason: `${where} asks for a bubblewrap sandbox, and bwrap is not installed on this machine (Debian: apt-get install bubblewrap); Jig will not run the task unsandboxed`,
    };
  if (s.resources !== undefined)
    return {
      ok: false,
      reason: `${where}: sandbox.resources cannot be enforced by a bubblewrap sandbox; remove them or use kind: podman`,
    };
  return { ok: true, program, image: null, resources: null };
}

/**
 * A podman or docker jail: the runtime installed, an image named, every limit enforceable here.
 * A proxied network is relayed into the container's namespace from outside, which docker allows
 * only a root server (rootless podman enters its own user namespace instead).
 */
function containerJail(
  s: Sandbox,
  kind: 'podman' | 'docker',
  where: string,
  o: { path?: string; uid?: number },
): Jail {
  const program = resolveExecutable(kind, o.path);
  const refuse = (why: string): Jail => ({
    ok: false,
    reason: `${where} asks for a ${kind} sandbox, ${why}; Jig will not run the task unsandboxed`,
  });
  if (program === null) return refuse(`and ${kind} is not installed on this machine`);
  if (s.image === undefined) return refuse('with no image: name one with sandbox.image');
  const uid = o.uid ?? process.getuid?.() ?? 0;
  if (kind === 'docker' && uid !== 0 && s.unrestricted_network !== true)
    return refuse(
      "and a docker container's egress is relayed into its network namespace, which takes a server running as root (rootless podman works: kind: podman)",
    );
  const limited = s.resources ? unenforceable(kind, s.resources, uid) : null;
  if (limited !== null) return refuse(`but ${limited}`);
  return { ok: true, program, image: s.image, resources: s.resources ?? null };
}

/**
 * `sandboxFor` for a task of an item (the chain it froze says its part): every worktree the item
 * has is writable inside.
 */
export function jailOf(
  rec: ItemRecord,
  repo: RepoEntry,
  policy: PolicyFile | null,
  phase: 'install' | 'runtime',
  agent: boolean,
  jigPort: number | null,
  taskPath: string,
): SandboxChoice {
  const worktrees = [
    ...(rec.worktree_path !== null ? [rec.worktree_path] : []),
    ...(rec.workspace?.members.flatMap((m) => (m.worktree_path ? [m.worktree_path] : [])) ?? []),
  ];
  const chain = rec.chain_definition === null ? null : chainSandbox(rec.chain_definition, taskPath);
  return sandboxFor({ repo, policy, chain, phase, agent, jigPort, worktrees });
}

/**
 * The jail of one harness's launch: the hosts its CLI needs (its `network.requires`) allowed too,
 * and the files that sign it in (its `login.files`) copied into the item's HOME.
 */
export function forHarness(
  s: SandboxRequest,
  provider: Pick<ProviderDefinition, 'network' | 'login'>,
): SandboxRequest {
  const hosts = provider.network?.requires ?? [];
  const logins = provider.login?.files ?? [];
  const jail = logins.length > 0 ? { ...s, logins } : s;
  if (jail.network.mode === 'open' || hosts.length === 0) return jail;
  return { ...jail, network: { ...jail.network, allow: [...jail.network.allow, ...hosts] } };
}
