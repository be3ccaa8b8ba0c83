import { resolve } from 'node:path';
import { nextFor, printAct } from '../next-step.js';
import type { Command } from 'commander';
import { JigClient } from '../../client/http.js';
import { createItem, dryRunItem } from '../../client/items.js';
import { describeDryRun } from './item-dry-run.js';
import { EXIT_OK, printJson } from '../output.js';
import { statSync } from 'node:fs';
import { inRepo } from '../in-repo.js';
import { repoOfCwd } from '../repo-of-cwd.js';
import { BadArgument, type PolicyAssignment } from './item-setup-args.js';
import { itemVerb } from './item-verb.js';

/*
 * `jig item create`. Every flag maps to a field of POST /api/work-items; the original's flags this
 * API has no field for yet (links to beads) are listed in help and refused by name,
 * so nothing is filed believing a setting was kept.
 */

export interface CreateOpts {
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
  after?: string[];
  autoGate?: boolean;
  skipNodes?: string[];
  nodeOverride?: NodeAssignment[];
  policy?: PolicyAssignment[];
  dryRun?: boolean;
  json?: boolean;
}

export interface NodeAssignment {
  node: string;
  /** One of item-create.ts's NODE_FIELDS. */
  field:
    'model' | 'effort' | 'extra_prompt' | 'auto_escalate' | 'auto_escalate_stuck' | 'auto_escalate_delay_s';
  value: string | boolean | number;
}

const isDirectory = (p: string): boolean => statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;

/** `{node: {field: value}}` from the assignments; a NODE.FIELD given twice is refused. */
function nodeOverrides(
  list: NodeAssignment[],
): Record<string, Record<string, NodeAssignment['value']>> | undefined {
  if (list.length === 0) return undefined;
  const out: Record<string, Record<string, NodeAssignment['value']>> = {};
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

/** `jig item create`. */
export function itemCreate(title: string, opts: CreateOpts, cmd: Command): Promise<void> {
  return itemVerb(async () => {
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
    const body = {
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
      after: opts.after,
      // Only when given: left out, the server decides by who files it.
      auto_gate: cmd.getOptionValueSource('autoGate') === 'cli' ? opts.autoGate : undefined,
    };
    if (opts.dryRun) {
      const dry = await dryRunItem(new JigClient(), body);
      if (opts.json) printJson(dry);
      else process.stdout.write(describeDryRun(dry));
      return EXIT_OK;
    }
    const created = await createItem(new JigClient(), body);
    if (opts.json) printJson(created);
    else
      printAct(
        `filed ${created.id} "${created.title}" on ${created.chain}, ${created.status}`,
        nextFor(created),
      );
    return EXIT_OK;
  });
}
