import type { Command } from 'commander';
import { nextFor, printAct } from '../next-step.js';
import { JigClient } from '../../client/http.js';
import { runMove, type RunMove, type RunMoveInput } from '../../client/items.js';
import { EXIT_OK, printJson } from '../output.js';
import { itemId } from '../item-of-cwd.js';
import { itemVerb } from './item-verb.js';

interface RunOpts extends RunMoveInput {
  json?: boolean;
}

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
    about: 'stop a running, queued or waiting item; its sessions and waits end',
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
    cmd.action((given: string | undefined, opts: RunOpts) =>
      itemVerb(async () => {
        // Only the options this move takes, and none left empty; the client shapes the body.
        const input: RunMoveInput = {};
        for (const o of m.opts) {
          const v = opts[o];
          if (typeof v === 'string' && v !== '') input[o] = v;
        }
        const c = new JigClient();
        const id = await itemId(c, m.move, given);
        const res = await runMove(c, id, m.move, input);
        if (opts.json) printJson(res);
        else printAct(`${m.past} ${res.id} (${res.status})`, nextFor(res));
        return EXIT_OK;
      }),
    );
  }
}
