import type { Sandbox, SandboxKind } from '../../contract/config/sandbox.js';
import { parseEgressEntry } from './egress-rules.js';

/** `kind` as written, else bubblewrap (no image needed) unless an image names a container. */
export const kindOf = (s: Sandbox): SandboxKind =>
  s.kind ?? (s.image !== undefined ? 'docker' : 'bubblewrap');

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
