import { z } from 'zod';

const HostLists = z
  .object({
    allow: z.array(z.string().min(1)).optional().describe('hosts reachable; absent = none'),
    deny: z.array(z.string().min(1)).optional().describe('hosts refused even when allowed'),
  })
  .strict();

/** Egress policy of a sandboxed worker: one list pair for installs (setup) and one for the agent's run. */
export const SandboxNetwork = z
  .object({
    install: HostLists.optional().describe('egress while setup_command runs'),
    runtime: HostLists.optional().describe('egress while the agent runs'),
  })
  .strict();
export type SandboxNetwork = z.infer<typeof SandboxNetwork>;

/**
 * `sandbox:` of a repo (or a policy layer): run agents in a container. Setting both `network` and
 * `unrestricted_network` is refused when the file loads (checked beside the schema, so the problem
 * points at the key).
 */
export const Sandbox = z
  .object({
    kind: z.enum(['docker', 'podman']).optional().describe('container runtime; default docker'),
    image: z.string().min(1).optional().describe('image the worker runs in'),
    resources: z
      .object({
        cpu: z.union([z.number().positive(), z.string().min(1)]).optional(),
        memory: z.string().min(1).optional().describe('e.g. 4g'),
        pids: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
    network: SandboxNetwork.optional().describe(
      'egress allow/deny lists; without it (or unrestricted_network) agent launches are refused',
    ),
    unrestricted_network: z.boolean().optional().describe('open egress; refused together with network'),
    credentials: z
      .array(z.record(z.string(), z.string()))
      .optional()
      .describe('managed credentials the egress proxy injects (the worker sees a sentinel only)'),
  })
  .strict();
export type Sandbox = z.infer<typeof Sandbox>;
