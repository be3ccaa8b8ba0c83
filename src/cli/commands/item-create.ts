import { InvalidArgumentError, Option, type Command } from 'commander';
import { later } from '../lazy.js';
import { collectPolicy } from './item-setup-args.js';
import type { NodeAssignment } from './item-create-actions.js';

/*
 * `jig item create`. Every flag maps to a field of POST /api/work-items; the original's flags this
 * API has no field for yet (links to beads) are listed in help and refused by name,
 * so nothing is filed believing a setting was kept.
 */

/** A dollar amount, or 'none' (commander would store a null a parser answers as an empty string). */
function usd(value: string): number | 'none' {
  if (value === 'none') return 'none';
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('a dollar amount above 0, or none');
  return n;
}

/** `a,b` as node ids; commas with nothing between them are a typo, not an empty id. */
function nodeList(value: string): string[] {
  const ids = value.split(',').map((s) => s.trim());
  if (ids.some((id) => !NODE_ID.test(id)))
    throw new InvalidArgumentError('node ids separated by commas, e.g. plan,plan_approval');
  return ids;
}

/** The node settings a `--node-override` may set (contract/items/node-override.ts). */
const NODE_FIELDS = [
  'model',
  'effort',
  'extra_prompt',
  'auto_escalate',
  'auto_escalate_stuck',
  'auto_escalate_delay_s',
] as const satisfies readonly NodeAssignment['field'][];
const NODE_ID = /^[a-z][a-z0-9_-]*$/;

function isNodeField(f: string): f is NodeAssignment['field'] {
  return (NODE_FIELDS as readonly string[]).includes(f);
}

/** The value as the field takes it: a yes/no for the escalation switches, whole seconds for the delay. */
function typed(key: string, field: NodeAssignment['field'], value: string): NodeAssignment['value'] {
  if (field === 'auto_escalate' || field === 'auto_escalate_stuck') {
    if (value === 'true' || value === 'false') return value === 'true';
    throw new InvalidArgumentError(`${key} takes true or false`);
  }
  if (field === 'auto_escalate_delay_s') {
    if (!/^\d+$/.test(value) || Number(value) > 86_400)
      throw new InvalidArgumentError(`${key} takes whole seconds from 0 to 86400`);
    return Number(value);
  }
  return value;
}

/** One `--node-override NODE.FIELD=VALUE`, e.g. implementation.model=opus. */
function parseNodeAssignment(raw: string): NodeAssignment {
  const eq = raw.indexOf('=');
  if (eq < 0) throw new InvalidArgumentError('expected NODE.FIELD=VALUE, e.g. implementation.model=opus');
  const key = raw.slice(0, eq).trim();
  const value = raw.slice(eq + 1).trim();
  const dot = key.lastIndexOf('.');
  const node = key.slice(0, dot);
  const field = key.slice(dot + 1);
  if (dot < 0 || !NODE_ID.test(node))
    throw new InvalidArgumentError(`${key || '(empty)'} is not NODE.FIELD, e.g. implementation.model`);
  if (!isNodeField(field)) throw new InvalidArgumentError(`${field} is not one of ${NODE_FIELDS.join(', ')}`);
  if (value === '') throw new InvalidArgumentError(`the value of ${key} is empty`);
  return { node, field, value: typed(key, field, value) };
}

function collectNode(raw: string, prev: NodeAssignment[] | undefined): NodeAssignment[] {
  return [...(prev ?? []), parseNodeAssignment(raw)];
}

function collectBead(raw: string, prev: string[] | undefined): string[] {
  return [...(prev ?? []), raw];
}

function collectIds(raw: string, prev: string[] | undefined): string[] {
  const ids = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return [...(prev ?? []), ...ids];
}

export function registerItemCreate(item: Command): void {
  item
    .command('create')
    .argument('<title>', 'one line of plain text')
    .description('file a work item (paused unless --autostart)')
    .option(
      '--repo <path|workspace>',
      "connected repository, or a workspace's name (default: the checkout you are in)",
    )
    .option('--members <a,b>', 'with a workspace: the members to run on (default: every member)')
    .option('--chain <id>', "chain to run (default: the repo's default chain)")
    .option('--template <id>', 'older name of --chain')
    .option('--description <text>', 'what the work is about')
    .option('--spec <file>', 'attach a spec (a file inside the repository)')
    .option('--plan <file>', 'attach a plan (a file inside the repository)')
    .option('--base-branch <branch>', "branch to cut the item's branch from (default: the repo's)")
    .option('--budget <usd>', "the item's own dollar cap, or none", usd)
    .option('--autostart', 'start at once (queued when no slot is free); refused inside a task')
    .option(
      '--node-override <NODE.FIELD=VALUE>',
      'one setting of one node (model, effort, extra_prompt, auto_escalate, auto_escalate_stuck, auto_escalate_delay_s), e.g. implementation.model=opus (repeatable)',
      collectNode,
    )
    .option(
      '--policy <PATH.FIELD=VALUE>',
      'one cap or limit for one scope, VALUE read as YAML (repeatable), e.g. verification.max_attempts=3',
      collectPolicy,
    )
    .option(
      '--implements <bead>',
      'a bead the item implements: closed when the item completes having changed something (repeatable)',
      collectBead,
    )
    .option(
      '--after <id>',
      'an item this one comes after: started before it completes, this one waits blocked (repeatable, or a,b)',
      collectIds,
    )
    .addOption(
      new Option('--auto-gate', "let a gate's reviewer agent decide first (the default for what you file)"),
    )
    .addOption(new Option('--no-auto-gate', 'leave every gate to a person, even one with a reviewer agent'))
    .option(
      '--skip-nodes <a,b>',
      'nodes of the chain to pass without running (each must be skippable)',
      nodeList,
    )
    .option(
      '--dry-run',
      'check it and say what would be filed (nodes, gates, agent tasks that cannot start here); files nothing',
    )
    .option('--json', 'print the API answer')
    .action(later(() => import('./item-create-actions.js'), 'itemCreate'));
}
