import { InvalidArgumentError } from 'commander';
import { parse as parseYaml } from 'yaml';
import { AttachmentKind } from '../../contract/items.js';
import { OVERRIDE_KEYS, policyOverrideProblem } from '../../core/items/policy-override.js';
import { EXIT_USAGE, runVerb } from '../output.js';

/* Argument parsing and reporting shared by the item setup verbs (item-setup.ts). */

/** A bad argument, or a refusal the CLI decides itself: one line on stderr, exit 2, nothing changed. */
export class BadArgument extends Error {}

/** Runs a setup verb: a BadArgument is a usage error, the rest is runVerb's. */
export function setupVerb(fn: () => Promise<number>): Promise<void> {
  return runVerb(async () => {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof BadArgument)) throw err;
      process.stderr.write(`jig: ${err.message}\n`);
      return EXIT_USAGE;
    }
  });
}

/** `a=1 b=x`, or `none`: what one line prints of an override object. */
export function describeValues(values: Record<string, unknown>): string {
  const parts = Object.entries(values).map(
    ([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`,
  );
  return parts.length > 0 ? parts.join(' ') : 'none';
}

export interface PolicyAssignment {
  key: string;
  value: unknown;
}

const SCOPE_PATH = /^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)*$/;

/**
 * One `--policy PATH.FIELD=VALUE`: VALUE read as YAML (so `3` is a number), FIELD one of the keys an
 * item's policy override takes, PATH the component path of the scope it sets.
 */
export function parsePolicyAssignment(raw: string): PolicyAssignment {
  const eq = raw.indexOf('=');
  if (eq < 0) throw new InvalidArgumentError('expected PATH.FIELD=VALUE, e.g. verification.max_attempts=3');
  const key = raw.slice(0, eq).trim();
  const dot = key.lastIndexOf('.');
  if (dot < 0 || !SCOPE_PATH.test(key))
    throw new InvalidArgumentError(
      `${key || '(empty)'} is not PATH.FIELD: a component path such as verification or verification.review, then the field`,
    );
  const field = key.slice(dot + 1);
  if (!(OVERRIDE_KEYS as readonly string[]).includes(field))
    throw new InvalidArgumentError(`${field} is not one of ${OVERRIDE_KEYS.join(', ')}`);
  let value: unknown;
  try {
    value = parseYaml(raw.slice(eq + 1));
  } catch (err) {
    throw new InvalidArgumentError(
      `the value of ${key} is not YAML: ${(err as Error).message.split('\n')[0]?.replace(/:\s*$/, '')}`,
    );
  }
  const bad = policyOverrideProblem({ [key]: value });
  if (bad) throw new InvalidArgumentError(`${key} ${bad.message}`);
  return { key, value };
}

/** Repeatable `--policy`; no default, so help shows none (the verb reads a missing list as empty). */
export function collectPolicy(raw: string, prev: PolicyAssignment[] | undefined): PolicyAssignment[] {
  return [...(prev ?? []), parsePolicyAssignment(raw)];
}

export function collectKind(raw: string, prev: AttachmentKind[] | undefined): AttachmentKind[] {
  const kind = AttachmentKind.safeParse(raw);
  if (!kind.success) throw new InvalidArgumentError(`${raw} is not an attachment kind (spec or plan)`);
  return [...(prev ?? []), kind.data];
}
