import { z } from 'zod';
import { IndexState } from './health.js';
import { UpdateAnswer } from './routes/update.js';

/**
 * `GET /api/admin/diagnostics`: what a bug report needs to know about this server, in one answer
 * (the board's About turns it into the text of "Copy diagnostics"). It holds no credential: no
 * token, password, password hash, session, webhook URL or secret, and every URL in it is stripped of
 * its password and of query parameters that carry one.
 */
export const DiagnosticsAnswer = z.strictObject({
  version: z.string().describe('version running'),
  installed: z.string().describe('version installed on disk; differs until a restart completes an update'),
  node: z.string().describe('the Node.js version running the server (`v20.19.0`)'),
  platform: z.string().describe('operating system and CPU of the server: `linux x64`'),
  os_release: z.string().describe("the operating system's release (the kernel's on Linux)"),
  home: z.string().describe('the home directory (JIG_HOME): run/, config/, addons/'),
  config_dir: z.string().describe('where the config files are (JIG_CONFIG_DIR, else config/ in the home)'),
  store: z.strictObject({
    kind: z
      .enum(['sqlite', 'postgres'])
      .describe('where the state is kept: a SQLite file, or PostgreSQL (docs/scale-out.md)'),
    location: z
      .string()
      .describe('the SQLite file, or the PostgreSQL URL without its password or any credential in its query'),
    schema_version: z.number().int().nonnegative().describe('the last migration applied'),
  }),
  server: z.strictObject({
    role: z.enum(['serve', 'worker']),
    bind: z.string().describe('the address listened on'),
    port: z.number().int(),
    pid: z.number().int(),
    uptime_s: z.number().nonnegative(),
    supervised: z.boolean().describe('a service manager restarts it when it exits'),
    password_set: z
      .boolean()
      .describe('whether access.yaml holds a password (remote callers need one); never the password'),
    allowed_hosts: z.array(z.string()).describe("access.yaml's allowed_hosts"),
  }),
  health: z.strictObject({
    status: z.enum(['ok', 'degraded']),
    problems: z
      .array(z.string())
      .describe('why it is degraded: the library, a chain, policy.yaml or intake.yaml that does not load'),
    intake_off: z.boolean(),
  }),
  update: UpdateAnswer.describe(
    'the last update check of the stable channel, as `GET /api/update` answers it',
  ),
  harnesses: z
    .array(
      z.strictObject({
        id: z.string(),
        provider: z.string(),
        enabled: z.boolean(),
        installed: z.boolean().describe('its CLI resolves on the server machine'),
        version: z.string().nullable().describe("its CLI's `--version` answer; null when none"),
      }),
    )
    .describe('each harness of harnesses.yaml'),
  counts: z.strictObject({
    items: z.record(z.string(), z.number().int().nonnegative()).describe('work items by stored status'),
    archived: z.number().int().nonnegative().describe('of those, the archived'),
    repos: z.number().int().nonnegative().describe('connected repositories'),
    workspaces: z.number().int().nonnegative(),
    addons: z.number().int().nonnegative().describe('installed add-ons'),
    workers: z.number().int().nonnegative().describe('live processes sharing the store, this one included'),
  }),
  index: IndexState,
});
export type DiagnosticsAnswer = z.infer<typeof DiagnosticsAnswer>;
