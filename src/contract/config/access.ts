import { z } from 'zod';

/** `access.yaml`: where the server listens and who may call it from elsewhere. */
export const AccessFile = z
  .object({
    bind: z.string().min(1).default('127.0.0.1').describe('address to listen on; loopback by default'),
    port: z.number().int().min(0).max(65535).default(8765),
    password_hash: z
      .string()
      .nullable()
      .default(null)
      .describe('scrypt hash with its parameters; set with `jig admin password`'),
    session_expiry_days: z
      .number()
      .positive()
      .max(3650)
      .default(7)
      .describe('how long a browser login lasts, up to ten years'),
    allowed_hosts: z
      .array(z.string().min(1))
      .default([])
      .describe('exact Host names a browser may use when bound off loopback; no wildcards'),
    database: z
      .string()
      .regex(/^postgres(ql)?:\/\//i, { error: 'is not a PostgreSQL URL (`postgres://user@host:5432/jig`)' })
      .optional()
      .describe(
        'PostgreSQL instead of the SQLite file in run/ (docs/scale-out.md); JIG_DATABASE_URL wins; keep a password out of it (use ~/.pgpass)',
      ),
  })
  .strict();
export type AccessFile = z.infer<typeof AccessFile>;
