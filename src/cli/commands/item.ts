import type { Command } from 'commander';
import type { ItemMove } from '../../client/items.js';
import { later } from '../lazy.js';
import { registerItemCreate } from './item-create.js';
import { registerItemForge } from './item-forge.js';
import { registerItemGates } from './item-gates.js';
import { registerItemReview } from './item-review.js';
import { registerItemRun } from './item-run.js';
import { registerItemSetup } from './item-setup.js';

/** The ID argument of an act verb: optional inside an item's worktree. */
const ID_ARG = ['[id]', 'work item id (default: the item of this worktree)'] as const;

export function registerItem(program: Command): void {
  const item = program.command('item').description('file work items and act on them');
  registerItemCreate(item);
  registerItemGates(item);
  registerItemRun(item);
  registerItemForge(item);
  registerItemSetup(item);

  const moves: { move: ItemMove; past: string; about: string }[] = [
    { move: 'cancel', past: 'cancelled', about: 'end an item; its worktree and branch are kept' },
    { move: 'complete', past: 'completed', about: 'end an item as completed by hand' },
    {
      move: 'archive',
      past: 'archived',
      about: 'archive a completed or cancelled item (reclaims its worktree)',
    },
    { move: 'restore', past: 'restored', about: 'bring an archived item back under Done' },
    {
      move: 'abandon',
      past: 'abandoned',
      about: 'end an item (a cancelled one too) and DELETE its worktree and branch',
    },
  ];
  item
    .command('record')
    .argument(...ID_ARG)
    .description(
      "keep the item's run as a recording (each session's answer, changed files and stream, each gate decision) that `jig chain test --replay` replays",
    )
    .option('--json', 'print the API answer')
    .action(later(() => import('./item-record-actions.js'), 'itemRecord'));
  item
    .command('escalate')
    .argument(...ID_ARG)
    .description('ask an agent to help with a stopped item (or --stop the running turn)')
    .option('--message <text>', 'what the agent should look at or do')
    .option('--new-thread', "start a new conversation instead of going on in the item's last escalation turn")
    .option('--stop', 'end the running escalation turn')
    .option('--json', 'print the API answer')
    .action(later(() => import('./item-actions.js'), 'itemEscalate'));
  for (const m of moves) {
    const cmd = item
      .command(m.move)
      .argument(...ID_ARG)
      .description(m.about)
      .option('--reason <text>', m.move === 'abandon' ? 'why (required)' : 'why')
      .option('--json', 'print the API answer');
    if (m.move === 'abandon') cmd.option('--yes', 'confirm: the worktree and branch are deleted');
    if (m.move === 'complete')
      cmd.option(
        '--close-beads',
        'close the beads and issues it implements even if its branch changed nothing',
      );
    cmd.action(later(() => import('./item-actions.js'), 'itemMove', m));
  }
  registerItemReview(item);
}
