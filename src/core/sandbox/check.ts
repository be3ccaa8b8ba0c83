import type { Sandbox, SandboxKind } from '../../contract/config/sandbox.js';
import { parseEgressEntry } from './egress-rules.js';

/** `kind` as written, else bubblewrap (no image needed) unless an image names a container. */
export const kindOf = (s: Sandbox): SandboxKind =>
  s.kind ?? (s.image !== undefined ? 'docker' : 'bubblewrap');

/** Memory as podman and docker read it: a whole number of bytes, or with a unit (at least 6m to start). */
const MEMORY = /^\d+(\.\d+)?[bkmg]?$/i;

/** A problem in a `sandbox:` block, at a path below it. */
export interface SandboxProblem {
  path: (string | number)[];
  message: string;
  /** Where the problem points: the key (a key that should not be there) or its value. */
  mode: 'key' | 'value';
}

/**
 * What is wrong in a sandbox block, found when the file loads rather than at the first launch:
 * `network` beside `unrestricted_network`, limits the kind cannot enforce, egress entries that
 * name no host.
 */
export function checkSandbox(s: Sandbox): SandboxProblem[] {
  const out: SandboxProblem[] = [];
  if (s.network && s.unrestricted_network !== undefined)
    out.push({
      path: ['unrestricted_network'],
      message: 'set `network` (egress lists) or `unrestricted_network`, not both',
      mode: 'key',
    });
  const kind = kindOf(s);
  if (s.resources !== undefined && (kind === 'bubblewrap' || kind === 'none'))
    out.push({
      path: ['resources'],
      message: `a ${kind} sandbox cannot enforce resources (cpu, memory, pids); remove them or use kind: podman`,
      mode: 'key',
    });
  if ((kind === 'podman' || kind === 'docker') && s.image === undefined)
    out.push({
      path: ['kind'],
      message: `a ${kind} sandbox runs an image: name it with \`image\` (Jig never pulls one; it must be there)`,
      mode: 'value',
    });
  if (s.image !== undefined && (kind === 'bubblewrap' || kind === 'none'))
    out.push({
      path: ['image'],
      message: `a ${kind} sandbox runs no image; remove it or use kind: podman`,
      mode: 'key',
    });
  const r = s.resources;
  if (r?.memory !== undefined && !MEMORY.test(r.memory))
    out.push({
      path: ['resources', 'memory'],
      message: `\`${r.memory}\` is not an amount of memory: write a number with b, k, m or g (e.g. 512m, 4g)`,
      mode: 'value',
    });
  if (typeof r?.cpu === 'string' && !(Number(r.cpu) > 0))
    out.push({
      path: ['resources', 'cpu'],
      message: `\`${r.cpu}\` is not a number of CPUs: write a positive number (e.g. 1.5)`,
      mode: 'value',
    });
  const lists: [(string | number)[], string[] | undefined][] = [
    [['network', 'allow'], s.network?.allow],
    [['network', 'deny'], s.network?.deny],
    [['network', 'install', 'allow'], s.network?.install?.allow],
    [['network', 'install', 'deny'], s.network?.install?.deny],
    [['network', 'runtime', 'allow'], s.network?.runtime?.allow],
    [['network', 'runtime', 'deny'], s.network?.runtime?.deny],
    ...(s.credentials ?? []).map((c, i): [(string | number)[], string[]] => [
      ['credentials', i, 'hosts'],
      c.hosts,
    ]),
  ];
  for (const [path, entries] of lists)
    entries?.forEach((e, j) => {
      if (parseEgressEntry(e) === null)
        out.push({
          path: [...path, j],
          message: `\`${e}\` names no host: write host, host:port, *.domain or an address with its port`,
          mode: 'value',
        });
    });
  return out;
}
