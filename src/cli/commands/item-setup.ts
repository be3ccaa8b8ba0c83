import { Option, type Command } from 'commander';
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

  const nodeOverride = verb(item, 'set-node-override', 'set the model or effort of one node of an item')
    .option('--node <id>', 'the node (required)')
    .option('--model <id>', "model for the node's agent tasks")
    .option('--effort <level>', "effort for the node's agent tasks")
    .option('--clear', "drop the node's override before setting the values given (alone: drop it)")
    .option('--json', 'print the API answer');
  // The original's other node settings, which this Jig's engine does not act on: refused by name
  // (not as unknown options) so the person learns nothing was stored.
  const unsupported: [attr: string, flags: string[]][] = [
    ['extraPrompt', ['--extra-prompt <text>']],
    ['autoEscalate', ['--auto-escalate', '--no-auto-escalate']],
    ['autoEscalateStuck', ['--auto-escalate-stuck', '--no-auto-escalate-stuck']],
    ['autoEscalateDelayS', ['--auto-escalate-delay-s <n>']],
  ];
  for (const [, flags] of unsupported)
    for (const f of flags) nodeOverride.addOption(new Option(f).hideHelp());
  nodeOverride.action(later(() => import('./item-setup-actions.js'), 'itemSetNodeOverride', unsupported));

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
