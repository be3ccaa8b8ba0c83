import { z } from 'zod';
import { ThemeFile } from './config/theme.js';

/* `GET`/`PUT /api/theme` and `/api/access` (docs/settings.md). */

export const ThemeAnswer = ThemeFile.extend({
  problem: z.string().nullable().describe('why theme.yaml does not load (the defaults are shown), else null'),
});
export type ThemeAnswer = z.infer<typeof ThemeAnswer>;

/** The keys to change; `board` is merged key by key into the file's. */
export const ThemePutBody = z
  .object({
    mode: z.string(),
    surface: z.string(),
    accent: z.string(),
    colour_amount: z.number(),
    density: z.string(),
    board: z.object({ group_by: z.string(), show_done: z.number(), open_in: z.string() }).partial().strict(),
  })
  .partial()
  .strict();
export type ThemePutBody = z.infer<typeof ThemePutBody>;

export const AccessAnswer = z.object({
  bind: z.string().describe('as saved in access.yaml'),
  port: z.number().int(),
  allowed_hosts: z.array(z.string()),
  session_expiry_days: z.number(),
  password_set: z.boolean().describe('the hash is never answered'),
  running: z
    .object({ bind: z.string(), port: z.number().int() })
    .describe('where this server listens now (--host/--port and JIG_HOST/JIG_PORT come before the file)'),
  restart_needed: z
    .boolean()
    .describe('the saved address or port differs from the running one: a restart applies it'),
  problem: z
    .string()
    .nullable()
    .describe('why access.yaml does not load (loopback defaults are in force), else null'),
});
export type AccessAnswer = z.infer<typeof AccessAnswer>;

/** What Settings › Access changes; the password has its own verb (`jig admin password`). */
/** A host name or address, as a browser sends it in `Host` (a port may follow): exact, no wildcard. */
const EXACT_HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(:[0-9]{1,5})?$/;

export const AllowedHost = z.string().superRefine((v, ctx) => {
  if (!EXACT_HOST.test(v))
    ctx.addIssue({
      code: 'custom',
      message: `${JSON.stringify(v)} is not an exact host name: list each name a browser uses (no wildcards), with an optional :port`,
    });
});

export const AccessPutBody = z
  .object({
    bind: z.string(),
    port: z.number(),
    allowed_hosts: z.array(AllowedHost),
    session_expiry_days: z.number(),
  })
  .partial()
  .strict();
export type AccessPutBody = z.infer<typeof AccessPutBody>;

/** `PUT /api/access/password`: a new password, or null to clear it; the current one when one is set. */
export const PasswordBody = z
  .object({
    password: z.string().max(1024).nullable(),
    current: z.string().max(1024).optional().describe('the password now set; required when one is'),
  })
  .strict();

export const TokenName = z.enum(['mcp', 'trigger']);

export const RotateTokensBody = z
  .object({
    tokens: z
      .array(TokenName)
      .min(1)
      .default(['mcp', 'trigger'])
      .describe('which tokens to replace: the MCP/CLI token, the trigger token'),
  })
  .strict();

export const RotateTokensAnswer = z.object({
  rotated: z
    .array(TokenName)
    .describe('replaced now: callers holding the old value are refused from their next request'),
});
