import type { Command } from 'commander';
import { JigClient } from '../../client/http.js';
import { runMove, type RunMove } from '../../client/items.js';
import { EXIT_OK, printJson, runVerb } from '../output.js';

interface RunOpts {
  note?: string;
  steer?: string;
  path?: string;
  model?: string;
  effort?: string;
  json?: boolean;
}

const moves: { move: RunMove; about: string; past: string; opts: (keyof RunOpts)[] }[] = [
  {
    move: 'resume',
    past: 'resumed',
    about: 'start a paused item; --note is delivered as a steer',
    opts: ['note'],
  },
  { move: 'pause', past: 'paused', about: 'stop a running or queued item; its sessions end', opts: [] },
  {
    move: 'retry',
    past: 'retried',
    about: 'rerun the node a stopped item stopped on, or from --path node[.step[.task]]',
    opts: ['path', 'steer', 'model', 'effort'],
  },
  { move: 'skip', past: 'skipped', about: 'advance past the current node or gate', opts: ['note'] },
];

const help: Record<Exclude<keyof RunOpts, 'json'>, [string, string]> = {
  note: ['--note <text>', 'a note for the next agent launch'],
  steer: ['--steer <text>', 'a note for the next agent launch'],
  path: ['--path <path>', 'where to rerun from: node, node.step or node.step.task'],
  model: ['--model <id>', "model for the node's agent tasks from now on"],
  effort: ['--effort <level>', "effort for the node's agent tasks from now on"],
};

/** Options that travel inside `task_config` rather than at the top of the body. */
const TASK_CONFIG = new Set<keyof RunOpts>(['model', 'effort']);

/** `jig item resume|pause|retry|skip`: the engine's moves on one item. */
export function registerItemRun(item: Command): void {
  for (const m of moves) {
    const cmd = item.command(m.move).argument('<id>', 'work item id').description(m.about);
    for (const o of m.opts) {
      const [flag, about] = help[o as Exclude<keyof RunOpts, 'json'>];
      cmd.option(flag, about);
    }
    cmd.option('--json', 'print the API answer');
    cmd.action((id: string, opts: RunOpts) =>
      runVerb(async () => {
        const body: Record<string, unknown> = {};
        const taskConfig: Record<string, string> = {};
        for (const o of m.opts) {
          const v = opts[o];
          if (typeof v !== 'string' || v === '') continue;
          if (TASK_CONFIG.has(o)) taskConfig[o] = v;
          else body[o] = v;
        }
        if (Object.keys(taskConfig).length > 0) body.task_config = taskConfig;
        const res = await runMove(new JigClient(), id, m.move, body);
        if (opts.json) printJson(res);
        else process.stdout.write(`${m.past} ${res.id} (${res.status})\n`);
        return EXIT_OK;
      }),
    );
  }
}
