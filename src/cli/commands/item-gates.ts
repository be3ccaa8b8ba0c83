import { InvalidArgumentError, type Command } from 'commander';
import { later } from '../lazy.js';

/* `jig item approve|reject|raise-budget`: the decisions a person takes on a stopped item. */

/** A gate request: the positive integer `gate_request` of the item. */
function requestNumber(value: string): number {
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(n) || n <= 0)
    throw new InvalidArgumentError("a gate request: the item's gate_request, a positive integer");
  return n;
}

/** A dollar amount, or 'none' (commander would store a null a parser answers as an empty string). */
function usdOrNone(value: string): number | 'none' {
  if (value === 'none') return 'none';
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new InvalidArgumentError('a dollar amount above 0, or none');
  return n;
}

export function registerItemGates(item: Command): void {
  item
    .command('approve')
    .argument('[id]', 'work item id (default: the item of this worktree)')
    .description('approve the gate an item waits at (a person decides: agents ask first)')
    .option('--gate <gate>', 'the gate to approve (default: the one the item waits at)')
    .option(
      '--digest <digest>',
      "approve only if the gate's document is still this revision (the digest `view artifact --json` printed)",
    )
    .option(
      '--request <n>',
      "the gate request you decided on (the item's gate_request; default: the one open now)",
      requestNumber,
    )
    .option('--json', 'print the API answer')
    .action(later(() => import('./item-gates-actions.js'), 'itemApprove'));

  item
    .command('reject')
    .argument('[id]', 'work item id (default: the item of this worktree)')
    .description("reject the gate an item waits at; the chain goes back with --note as the agent's steer")
    .option('--note <text>', 'what to change (required)')
    .option('--gate <gate>', 'the gate to reject (default: the one the item waits at)')
    .option('--node <node>', "node to go back to (default: the gate's reject_to)")
    .option(
      '--request <n>',
      "the gate request you decided on (the item's gate_request; default: the one open now)",
      requestNumber,
    )
    .option('--json', 'print the API answer')
    .action(later(() => import('./item-gates-actions.js'), 'itemReject'));

  item
    .command('raise-budget')
    .argument('[id]', 'work item id (default: the item of this worktree)')
    .description("raise the item's own dollar cap; an item stopped on its budget runs again")
    .option(
      '--usd <usd|none>',
      'the new cap in dollars, above what the item has spent; none drops the own cap',
      usdOrNone,
    )
    .option('--json', 'print the API answer')
    .action(later(() => import('./item-gates-actions.js'), 'itemRaiseBudget'));
}
