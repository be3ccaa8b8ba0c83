import type { z } from 'zod';
import { OpRefused } from '../ops/context.js';

/**
 * Checks one raw op of a settings area against its name's schema: an unknown name, an unknown
 * field or a missing or mistyped one refuses it, naming the field (the runner adds the op's index).
 */
export function parseSettingsOp<Op extends { op: string }>(
  schemas: Readonly<Record<string, z.ZodType<Op>>>,
  area: string,
  raw: { op: string },
): Op {
  const schema = Object.hasOwn(schemas, raw.op) ? schemas[raw.op] : undefined;
  if (!schema) {
    throw new OpRefused(
      `op: unknown op \`${raw.op}\` on the ${area} draft (${Object.keys(schemas).join(', ')})`,
    );
  }
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const keys = issue && 'keys' in issue && Array.isArray(issue.keys) ? ` (${issue.keys.join(', ')})` : '';
  const field = issue?.path.length ? issue.path.join('.') : 'op';
  throw new OpRefused(`${field}: ${issue?.message ?? 'not a valid op'}${keys}`);
}
