import { z } from 'zod';

/**
 * What the sandbox program (sandbox-main.ts) is told about one session, written by the server as
 * `plan.json` in the session's sandbox folder: the jail's mounts, the task, and its egress lists.
 */
export const Mount = z.object({ path: z.string().min(1), writable: z.boolean() }).strict();
export type Mount = z.infer<typeof Mount>;

export const SandboxPlan = z
  .object({
    kind: z.enum(['bubblewrap', 'podman', 'docker']),
    /** The bwrap, podman or docker executable, resolved when the plan was made. */
    program: z.string().min(1),
    /** A container kind's own settings; null under bubblewrap. */
    container: z
      .object({
        image: z.string().min(1),
        /** The container's name (`jig-<session>`): what the server removes if the task is killed. */
        name: z.string().min(1),
        resources: z
          .object({
            cpu: z.union([z.number(), z.string()]).optional(),
            memory: z.string().optional(),
            pids: z.number().int().optional(),
          })
          .strict(),
        /**
         * The server's variables the container runtime itself reads (its configuration, its
         * socket, the rootless user's folders): podman runs with these, the task with `env`.
         */
        runtimeEnv: z.record(z.string(), z.string()),
        /** Who the task runs as: the server's uid and gid. */
        user: z.object({ uid: z.number().int(), gid: z.number().int() }).strict(),
      })
      .strict()
      .nullable(),
    argv: z.array(z.string()).min(1),
    cwd: z.string().min(1),
    /** The task's environment inside (the proxy variables are added by the sandbox program). */
    env: z.record(z.string(), z.string()),
    /** Host paths visible inside at the same path; everything else of the host is absent. */
    mounts: z.array(Mount),
    /** The session's sandbox folder: sockets, the relay, the egress log. */
    dir: z.string().min(1),
    network: z.discriminatedUnion('mode', [
      z.object({ mode: z.literal('open') }).strict(),
      z
        .object({
          mode: z.literal('proxied'),
          allow: z.array(z.string()),
          deny: z.array(z.string()),
          /** Jig's API port on loopback, relayed inside at the same port. */
          jigPort: z.number().int().positive().nullable(),
          /** Whose requests the relay lets through to the API (core/sandbox/api-allow.ts). */
          caller: z.object({ item: z.string().min(1), escalation: z.boolean() }).strict(),
          /** Headers the proxy sets on requests to these hosts (the task has placeholders). */
          secrets: z.array(
            z.object({ hosts: z.array(z.string()), header: z.string(), value: z.string() }).strict(),
          ),
          /** The home's sandbox CA, for ending TLS to the secrets' hosts; null without secrets. */
          tls: z.object({ cert: z.string(), key: z.string() }).strict().nullable(),
        })
        .strict(),
    ]),
  })
  .strict();
export type SandboxPlan = z.infer<typeof SandboxPlan>;

/** Where the proxy listens inside the sandbox (the port the original used, and Squid's). */
export const PROXY_PORT = 3128;

/**
 * A session's sandbox folder: the plan and the refusals stay outside; `in/` (sockets and the relay)
 * is visible read-only inside, `out/` (the result file, the fix brief) read-write.
 */
export const planFiles = (dir: string) => ({
  plan: `${dir}/plan.json`,
  refusals: `${dir}/egress.jsonl`,
  inside: `${dir}/in`,
  egressSocket: `${dir}/in/egress.sock`,
  jigSocket: `${dir}/in/jig.sock`,
  relay: `${dir}/in/relay.mjs`,
  out: `${dir}/out`,
  /** A container's variables (0600; podman and docker read them with --env-file). */
  envFile: `${dir}/container.env`,
  /** Written by the sandbox program when its jail could not start (the task never ran). */
  unstarted: `${dir}/unstarted.json`,
  /** Written by the sandbox program when the runtime says the container was killed out of memory. */
  oom: `${dir}/oom.json`,
  /** The container a session runs in, for the server to remove when the task is gone (container.ts). */
  container: `${dir}/container.json`,
  /** The login files copied into the item's HOME for this session, to write back when renewed (logins.ts). */
  logins: `${dir}/logins.json`,
});
