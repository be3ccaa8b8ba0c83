import type { Command } from 'commander';
import type { RunMove, RunMoveInput } from '../../client/items.js';
import { later } from '../lazy.js';

const moves: { move: RunMove; about: string; past: string; opts: (keyof RunMoveInput)[] }[] = [
  {
    move: 'resume',
    past: 'resumed',
    about: 'start a paused item; --note is delivered as a steer',
    opts: ['note'],
  },
  {
    move: 'pause',
    past: 'paused',
    about: 'stop a running, queued, waiting or blocked item; its sessions and waits end',
    opts: [],
  },
  {
    move: 'retry',
    past: 'retried',
    about: 'rerun the node a stopped item stopped on, or from --path node[.step[.task]]',
    opts: ['path', 'steer', 'model', 'effort'],
  },
  { move: 'skip', past: 'skipped', about: 'advance past the current node or gate', opts: ['note'] },
];

const help: Record<keyof RunMoveInput, [string, string]> = {
  note: ['--note <text>', 'a note for the next agent launch'],
  steer: ['--steer <text>', 'a note for the next agent launch'],
  path: ['--path <path>', 'where to rerun from: node, node.step or node.step.task'],
  model: ['--model <id>', "model for the node's agent tasks from now on"],
  effort: ['--effort <level>', "effort for the node's agent tasks from now on"],
};

/** `jig item resume|pause|retry|skip`: the engine's moves on one item. */
export function registerItemRun(item: Command): void {
  for (const m of moves) {
    const cmd = item
      .command(m.move)
      .argument('[id]', 'work item id (default: the item of this worktree)')
      .description(m.about);
    for (const o of m.opts) {
      const [flag, about] = help[o];
      cmd.option(flag, about);
    }
    cmd.option('--json', 'print the API answer');
    cmd.action(later(() => import('./item-run-actions.js'), 'itemRunMove', m));
  }
  item
    .command('unblock')
    .argument('[id]', 'work item id (default: the item of this worktree)')
    .description(
      'drop what the item comes after (every dependency, or --dependency ID); a blocked item then starts',
    )
    .option('--dependency <id>', 'drop only this dependency')
    .option('--json', 'print the API answer')
    .action(later(() => import('./item-run-actions.js'), 'itemUnblock'));
}
