import { InvalidArgumentError, type Command } from 'commander';
import type { RunMove, RunMoveInput } from '../../client/items.js';
import { later } from '../lazy.js';

const moves: { move: RunMove; about: string; past: string; opts: (keyof RunMoveInput)[] }[] = [
  {
    move: 'resume',
    past: 'resumed',
    about: 'start a paused item; --note (or --steer) and --steer-task are delivered as steers',
    opts: ['note', 'steer', 'steers'],
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
    about:
      'rerun the node a stopped item stopped on, or from --path node[.step[.task]]; the task goes on in the agent session it stopped in unless --restart',
    opts: ['path', 'steer', 'restart', 'model', 'effort'],
  },
  {
    move: 'skip',
    past: 'skipped',
    about:
      'advance past the current node or gate, or mark --path (a node to come, a step or task of this node) to pass',
    opts: ['path', 'note'],
  },
];

/** `PATH=TEXT`, repeatable: one steer per task path. */
function collectSteer(raw: string, prev: Record<string, string> = {}): Record<string, string> {
  const eq = raw.indexOf('=');
  const path = raw.slice(0, eq).trim();
  const text = raw.slice(eq + 1).trim();
  if (eq < 0 || path === '')
    throw new InvalidArgumentError(
      'expected PATH=TEXT, e.g. implementation.main.implement="use the new API"',
    );
  if (text === '') throw new InvalidArgumentError(`the steer for ${path} is empty`);
  return { ...prev, [path]: text };
}

const help: Record<
  keyof RunMoveInput,
  { move?: RunMove; flag: string; about: string; parse?: typeof collectSteer }
> = {
  note: { flag: '--note <text>', about: 'a note for the next agent launch' },
  steer: { flag: '--steer <text>', about: 'a note for the next agent launch' },
  steers: {
    flag: '--steer-task <PATH=TEXT>',
    about: 'a note for the next launch of one agent task, by its path (repeatable)',
    parse: collectSteer,
  },
  path: { flag: '--path <path>', about: 'where to rerun from: node, node.step or node.step.task' },
  restart: { flag: '--restart', about: 'a fresh agent session instead of going on in the one that stopped' },
  model: { flag: '--model <id>', about: "model for the node's agent tasks from now on" },
  effort: { flag: '--effort <level>', about: "effort for the node's agent tasks from now on" },
};

/** Where a move's `--path` differs from retry's. */
const skipPath = 'what to pass: a node still to come, or node.step / node.step.task of the current node';

/** `jig item resume|pause|retry|skip`: the engine's moves on one item. */
export function registerItemRun(item: Command): void {
  for (const m of moves) {
    const cmd = item
      .command(m.move)
      .argument('[id]', 'work item id (default: the item of this worktree)')
      .description(m.about);
    for (const o of m.opts) {
      const h = help[o];
      const about = m.move === 'skip' && o === 'path' ? skipPath : h.about;
      if (h.parse) cmd.option(h.flag, about, h.parse);
      else cmd.option(h.flag, about);
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
