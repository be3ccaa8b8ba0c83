import { z } from 'zod';

const HostLists = z
  .object({
    allow: z.array(z.string().min(1)).optional().describe('hosts reachable; absent = none'),
    deny: z.array(z.string().min(1)).optional().describe('hosts refused even when allowed'),
  })
  .strict();

/**
 * Egress policy of a sandboxed task: `allow`/`deny` for every task, and (the original's form) one
 * more pair for the setup command (`install`) and one for the other tasks (`runtime`). An entry is
 * `host` (ports 80 and 443), `host:port`, or `*.domain` (any name below it); deny wins.
 */
export const SandboxNetwork = z
  .object({
    allow: z.array(z.string().min(1)).optional().describe('hosts every task may reach'),
    deny: z.array(z.string().min(1)).optional().describe('hosts refused even when allowed'),
    install: HostLists.optional().describe('egress while setup_command runs'),
    runtime: HostLists.optional().describe('egress while the agent runs'),
  })
  .strict();
export type SandboxNetwork = z.infer<typeof SandboxNetwork>;

/**
 * A secret the task must use but never see: its variable holds a placeholder inside the jail, and
 * the egress proxy sets `header` (to `format` with `{value}` replaced) on requests to `hosts`.
 */
export const SandboxCredential = z
  .object({
    env: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .describe("the variable holding the secret (the repo's env, or the server's passed through)"),
    hosts: z.array(z.string().min(1)).min(1).describe('where the secret may go (also allowed)'),
    header: z
      .string()
      .regex(/^[A-Za-z0-9-]+$/)
      .describe('the header the proxy sets, e.g. x-api-key'),
    format: z
      .string()
      .regex(/\{value\}/)
      .optional()
      .describe('the header value, `{value}` standing for the secret; default `{value}`'),
  })
  .strict();
export type SandboxCredential = z.infer<typeof SandboxCredential>;

/** How a task is jailed: `none` runs it as the server's user with the server's reach. */
export const SANDBOX_KINDS = ['bubblewrap', 'podman', 'docker', 'none'] as const;
export type SandboxKind = (typeof SANDBOX_KINDS)[number];

/**
 * `sandbox:` of a repo (or a policy layer): run every task of its items in a jail (docs/sandbox.md).
 * Setting both `network` and `unrestricted_network` is refused when the file loads (checked beside
 * the schema, so the problem points at the key).
 */
export const Sandbox = z
  .object({
    kind: z.enum(SANDBOX_KINDS).optional().describe('bubblewrap (no image), podman, docker, or none'),
    image: z.string().min(1).optional().describe('image a podman or docker task runs in'),
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
      .array(SandboxCredential)
      .optional()
      .describe('secrets the egress proxy adds to requests; the task sees a placeholder only'),
  })
  .strict();
export type Sandbox = z.infer<typeof Sandbox>;
