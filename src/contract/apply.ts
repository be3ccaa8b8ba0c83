import { z } from 'zod';
import { ProblemSchema } from './reload.js';

export const ApplyFile = z.object({
  file: z.string().describe('file name in the config directory (`library.yaml`, `chains/default.yaml`)'),
  applies_by: z
    .enum(['reload', 'next_read', 'restart'])
    .describe(
      '`reload`: runs once reloaded; `next_read`: read when needed (harnesses.yaml, repos.yaml); `restart`: access.yaml, whose address and port are read at start',
    ),
  running_sha256: z
    .string()
    .nullable()
    .describe(
      'sha256 of the text running (for `next_read` files: as the last reload checked it); null for none',
    ),
  disk_sha256: z.string().nullable().describe('sha256 of the file on disk now; null when it does not exist'),
  changed: z
    .boolean()
    .describe(
      'the file on disk differs from the one running (or last checked); for access.yaml, its address or port does',
    ),
});
export type ApplyFile = z.infer<typeof ApplyFile>;

export const ApplyRefusal = z.object({
  file: z.string(),
  problems: z.array(ProblemSchema),
  kept: z
    .boolean()
    .describe(
      'a version loaded earlier still runs (library, chain, policy, intake); false: nothing of it runs (a new chain, notify.yaml sends nothing) or it is read when needed (harnesses.yaml, repos.yaml)',
    ),
});
export type ApplyRefusal = z.infer<typeof ApplyRefusal>;

/** `GET /api/apply`: what is saved on disk but not running yet. */
export const ApplyAnswer = z.object({
  files: z.array(ApplyFile),
  refused: z
    .array(ApplyRefusal)
    .describe('files on disk that a reload would not load now, checked as a reload checks them'),
  reload_needed: z.boolean().describe('a `reload` file changed: POST /api/apply/reload runs it'),
  restart_needed: z
    .boolean()
    .describe(
      'the version installed on disk differs from the one running, or access.yaml names another address or port: a restart runs it',
    ),
  version: z.string().describe('version running'),
  installed: z.string().describe('version installed on disk'),
  supervised: z
    .boolean()
    .describe('a service manager restarts this server when it exits, so POST /api/apply/restart works'),
});
export type ApplyAnswer = z.infer<typeof ApplyAnswer>;

/**
 * The exit code of a restart asked through the API: EX_TEMPFAIL, non-zero so that a systemd unit
 * with `Restart=on-failure` (or `always`) starts the server again.
 */
export const RESTART_EXIT_CODE = 75;

/** `POST /api/apply/restart` (202): the server exits after this answer; its service manager starts it again. */
export const RestartAnswer = z.object({
  restarting: z.literal(true),
  exit_code: z.number().int().describe('the code the process exits with, so the manager restarts it'),
  detail: z.string(),
});
export type RestartAnswer = z.infer<typeof RestartAnswer>;
