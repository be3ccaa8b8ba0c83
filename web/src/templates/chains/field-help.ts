import type { z } from 'zod';
import { ChainFile } from '../../../../src/contract/config/chain.js';
import { ChainNode, ChainStep, ChainTask } from '../../../../src/contract/config/components.js';

/*
 * What the inspector says about a field, read from the same zod schemas that check chain files: a
 * label in words instead of the YAML key (`chain_finalized` → "Chain finalized"), the schema's
 * description under it, and the kind of value it holds, so the "set a field" row offers the keys a
 * component can have and an input of the right type for the one picked.
 */

export type Scope = 'chain' | 'node' | 'step' | 'task';
export type FieldType = 'boolean' | 'number' | 'string' | 'other';

export interface FieldHelp {
  key: string;
  label: string;
  description: string | null;
  type: FieldType;
}

const SHAPES: Record<Scope, Record<string, z.ZodType>> = {
  chain: ChainFile.shape,
  node: ChainNode.shape,
  step: ChainStep.shape,
  task: ChainTask.shape,
};

/** Keys the inspector edits with controls of their own (the graph, steps, tasks, handlers, base). */
const OWN_CONTROLS = new Set([
  'id',
  'kind',
  'extends',
  'nodes',
  'steps',
  'tasks',
  'on_failure',
  'fix_loop',
  'escalation',
  'auto_review',
  'on_base_changed',
  'judge',
]);

/** "chain_finalized" → "Chain finalized"; a dotted key by its last part ("policy.budget_usd" → "Budget usd"). */
export function humanize(key: string): string {
  const last = key.split('.').pop() ?? key;
  const words = last.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The value type under optional, nullable and default wrappers. */
function typeOf(schema: z.ZodType | undefined): FieldType {
  let s = schema as { def: { type: string }; unwrap?: () => unknown } | undefined;
  while (s && typeof s.unwrap === 'function' && ['optional', 'nullable', 'default'].includes(s.def.type))
    s = s.unwrap() as typeof s;
  switch (s?.def.type) {
    case 'boolean':
      return 'boolean';
    case 'number':
    case 'int':
      return 'number';
    case 'string':
    case 'enum':
    case 'literal':
      return 'string';
    default:
      return 'other';
  }
}

export function fieldHelp(scope: Scope, key: string): FieldHelp {
  const schema = key.includes('.') ? undefined : SHAPES[scope][key];
  return { key, label: humanize(key), description: schema?.description ?? null, type: typeOf(schema) };
}

/** The keys the "set a field" row offers: what the component may hold, not set yet, without a control of its own. */
export function settable(scope: Scope, set: readonly string[]): FieldHelp[] {
  return Object.keys(SHAPES[scope])
    .filter((k) => !OWN_CONTROLS.has(k) && !set.includes(k))
    .sort()
    .map((k) => fieldHelp(scope, k));
}
