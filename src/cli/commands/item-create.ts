import { resolve } from 'node:path';
import { nextFor, printAct } from '../next-step.js';
import { InvalidArgumentError, Option, type Command } from 'commander';
import { JigClient } from '../../client/http.js';
import { createItem } from '../../client/items.js';
import { EXIT_OK, printJson } from '../output.js';
import { statSync } from 'node:fs';
import { inRepo } from '../in-repo.js';
import { repoOfCwd } from '../repo-of-cwd.js';
import { BadArgument, collectPolicy, type PolicyAssignment } from './item-setup-args.js';
import { itemVerb } from './item-verb.js';

/*
 * `jig item create`. Every flag maps to a field of POST /api/work-items; the original's flags this
 * API has no field for yet (links to beads) are listed in help and refused by name,
 * so nothing is filed believing a setting was kept.
 */

interface CreateOpts {
  repo?: string;
  members?: string;
  chain?: string;
  template?: string;
  description?: string;
  spec?: string;
  plan?: string;
  budget?: number | 'none';
  autostart?: boolean;
  baseBranch?: string;
  implements?: string[];
  autoGate?: boolean;
  skipNodes?: string[];
  nodeOverride?: NodeAssignment[];
  policy?: PolicyAssignment[];
  json?: boolean;
}

const isDirectory = (p: string): boolean => statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;

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

/** The node settings the engine acts on; the original's others are refused by name. */
const NODE_FIELDS = ['model', 'effort'] as const;
const NODE_FIELDS_ELSEWHERE = [
  'extra_prompt',
  'auto_escalate',
  'auto_escalate_stuck',
  'auto_escalate_delay_s',
];
const NODE_ID = /^[a-z][a-z0-9_-]*$/;

interface NodeAssignment {
  node: string;
  field: (typeof NODE_FIELDS)[number];
  value: string;
}

function isNodeField(f: string): f is NodeAssignment['field'] {
  return (NODE_FIELDS as readonly string[]).includes(f);
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
  if (NODE_FIELDS_ELSEWHERE.includes(field))
    throw new InvalidArgumentError(
      `${field} is not supported by this version of Jig (a node override sets ${NODE_FIELDS.join(' and ')})`,
    );
  if (!isNodeField(field)) throw new InvalidArgumentError(`${field} is not one of ${NODE_FIELDS.join(', ')}`);
  if (value === '') throw new InvalidArgumentError(`the value of ${key} is empty`);
  return { node, field, value };
}

function collectNode(raw: string, prev: NodeAssignment[] | undefined): NodeAssignment[] {
  return [...(prev ?? []), parseNodeAssignment(raw)];
}

function collectBead(raw: string, prev: string[] | undefined): string[] {
  return [...(prev ?? []), raw];
}

/** `{node: {field: value}}` from the assignments; a NODE.FIELD given twice is refused. */
function nodeOverrides(list: NodeAssignment[]): Record<string, Record<string, string>> | undefined {
  if (list.length === 0) return undefined;
  const out: Record<string, Record<string, string>> = {};
  for (const { node, field, value } of list) {
    // A node may be called `constructor`: only the entries made here count, never Object's.
    const entry = (Object.hasOwn(out, node) ? out[node] : undefined) ?? (out[node] = {});
    if (Object.hasOwn(entry, field)) throw new BadArgument(`--node-override ${node}.${field} is given twice`);
    entry[field] = value;
  }
  return out;
}

function policyOverride(list: PolicyAssignment[]): Record<string, unknown> | undefined {
  if (list.length === 0) return undefined;
  const out: Record<string, unknown> = {};
  for (const { key, value } of list) {
    if (Object.hasOwn(out, key)) throw new BadArgument(`--policy ${key} is given twice`);
    out[key] = value;
  }
  return out;
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
      'model or effort of one node, e.g. implementation.model=opus (repeatable)',
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
    .addOption(
      new Option('--auto-gate', "let a gate's reviewer agent decide first (the default for what you file)"),
    )
    .addOption(new Option('--no-auto-gate', 'leave every gate to a person, even one with a reviewer agent'))
    .option(
      '--skip-nodes <a,b>',
      'nodes of the chain to pass without running (each must be skippable)',
      nodeList,
    )
    .option('--json', 'print the API answer')
    .action((title: string, opts: CreateOpts, cmd: Command) =>
      itemVerb(async () => {
        if (opts.autostart && process.env.JIG_WORK_ITEM_ID?.trim())
          throw new BadArgument(
            '--autostart is refused inside a work item task (JIG_WORK_ITEM_ID is set): items an agent files land paused',
          );
        // The server refuses it too ("the title is one line"); here the refusal can name the flag.
        if (/[\n\r\u2028\u2029\u0085]/.test(title))
          throw new BadArgument(
            'the title is one line; pass the first line as the title and the rest as --description TEXT',
          );
        // A --repo that is no directory here is a workspace's name (docs/workspaces.md).
        const workspace = opts.repo !== undefined && !isDirectory(opts.repo) ? opts.repo : null;
        const repo = workspace ?? (opts.repo ? resolve(opts.repo) : repoOfCwd());
        if (!repo) throw new BadArgument('not in a git checkout; pass --repo');
        const members = opts.members
          ?.split(',')
          .map((m) => m.trim())
          .filter(Boolean);
        if (opts.members !== undefined && !workspace)
          throw new BadArgument('--members is for a workspace: pass its name as --repo');
        if (opts.chain && opts.template && opts.chain !== opts.template)
          throw new BadArgument('--chain and --template name different chains; pass one');
        const attachments: Record<string, { path: string }> = {};
        try {
          // On a workspace the path is the root's to resolve: it is sent as given, relative to the root.
          const at = (f: string) => (workspace ? f : inRepo(f, repo));
          if (opts.spec) attachments.spec = { path: at(opts.spec) };
          if (opts.plan) attachments.plan = { path: at(opts.plan) };
        } catch (err) {
          throw new BadArgument((err as Error).message);
        }
        const created = await createItem(new JigClient(), {
          title,
          repo,
          ...(members ? { members } : {}),
          chain: opts.chain ?? opts.template,
          description: opts.description,
          start: opts.autostart === true,
          attachments: Object.keys(attachments).length > 0 ? attachments : undefined,
          budget_usd: opts.budget === 'none' ? null : opts.budget,
          base_branch: opts.baseBranch,
          node_overrides: nodeOverrides(opts.nodeOverride ?? []),
          policy_override: policyOverride(opts.policy ?? []),
          skip_nodes: opts.skipNodes,
          implements: opts.implements,
          // Only when given: left out, the server decides by who files it.
          auto_gate: cmd.getOptionValueSource('autoGate') === 'cli' ? opts.autoGate : undefined,
        });
        if (opts.json) printJson(created);
        else
          printAct(
            `filed ${created.id} "${created.title}" on ${created.chain}, ${created.status}`,
            nextFor(created),
          );
        return EXIT_OK;
      }),
    );
}
