import type { Command } from 'commander';
import { later } from '../lazy.js';
import { collectKind, collectPolicy } from './item-setup-args.js';

/*
 * `jig item set-chain|set-attachments|set-overrides|set-node-override|set-policy`: an item's setup,
 * as the original's CLI has it. Each goes through `PATCH /api/work-items/:id`, except a node
 * override on an item whose chain is materialized (item-node-override.ts says why).
 */

/** Options that appear on every setup verb. */
function verb(parent: Command, name: string, about: string): Command {
  return parent.command(name).argument('<id>', 'work item id').description(about);
}

export function registerItemSetup(item: Command): void {
  verb(item, 'set-chain', 'change the chain of an item that has not started')
    .option('--chain <id>', 'the chain to run')
    .option('--template <id>', 'older name of --chain')
    .option('--json', 'print the API answer')
    .action(later(() => import('./item-setup-actions.js'), 'itemSetChain'));

  verb(item, 'set-after', 'replace what an item comes after (its next start waits for them to complete)')
    .option(
      '--after <id>',
      'an item it comes after (repeatable, or a,b)',
      (raw: string, prev: string[] = []) => [
        ...prev,
        ...raw
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      ],
    )
    .option('--none', 'it comes after nothing')
    .option('--json', 'print the API answer')
    .action(later(() => import('./item-setup-actions.js'), 'itemSetAfter'));

  verb(item, 'set-attachments', 'attach, replace or drop the spec or plan of an item')
    .option('--spec <file>', 'attach this spec (a file inside the repository)')
    .option('--plan <file>', 'attach this plan (a file inside the repository)')
    .option('--drop <kind>', 'drop the spec or plan attachment (repeatable)', collectKind)
    .option('--json', 'print the API answer')
    .action(later(() => import('./item-setup-actions.js'), 'itemSetAttachments'));

  verb(item, 'set-overrides', "set the item's model, effort and escalation model (replaces the override)")
    .option('--model <id>', 'model for every agent task of the item')
    .option('--effort <level>', 'effort for every agent task of the item')
    .option('--escalate-model <id>', 'model for escalation turns')
    .option('--clear', 'drop the item override')
    .option('--json', 'print the API answer')
    .action(later(() => import('./item-setup-actions.js'), 'itemSetOverrides'));

  verb(
    item,
    'set-node-override',
    'set what one node of an item runs on, adds to its prompts, and how it escalates',
  )
    .option('--node <id>', 'the node (required)')
    .option('--model <id>', "model for the node's agent tasks")
    .option('--effort <level>', "effort for the node's agent tasks")
    .option('--extra-prompt <text>', "text added to the prompt of each of the node's agent tasks")
    .option('--auto-escalate', "run the node's own escalation task when it is stuck (the default)")
    .option('--no-auto-escalate', "never run the node's own escalation task for this item")
    .option('--auto-escalate-stuck', 'give a stuck stop at this node an escalation turn by itself')
    .option('--no-auto-escalate-stuck', 'never give a stuck stop at this node an escalation turn by itself')
    .option('--auto-escalate-delay-s <n>', 'seconds before that escalation turn starts')
    .option('--clear', "drop the node's override before setting the values given (alone: drop it)")
    .option('--json', 'print the API answer')
    .action(later(() => import('./item-setup-actions.js'), 'itemSetNodeOverride'));

  verb(item, 'set-policy', "replace the item's own policy override (every scope it sets)")
    .option(
      '--policy <PATH.FIELD=VALUE>',
      'one cap or limit for one scope, VALUE read as YAML (repeatable), e.g. verification.max_attempts=3',
      collectPolicy,
    )
    .option('--clear', 'drop the policy override')
    .option('--json', 'print the API answer')
    .action(later(() => import('./item-setup-actions.js'), 'itemSetPolicy'));
}
