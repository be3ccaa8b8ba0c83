import { resolve } from 'node:path';
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { JigClient } from '../../client/http.js';
import { createItem, escalateItem, moveItem, stopEscalation, type ItemMove } from '../../client/items.js';
import { EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';
import { inRepo } from '../in-repo.js';
import { repoOfCwd } from '../repo-of-cwd.js';
import { registerItemRun } from './item-run.js';
import { registerItemSetup } from './item-setup.js';

interface CreateOpts {
  repo?: string;
  chain?: string;
  template?: string;
  description?: string;
  spec?: string;
  plan?: string;
  budget?: number | null;
  json?: boolean;
}

function usd(value: string): number | null {
  if (value === 'none') return null;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('a dollar amount above 0, or none');
  return n;
}

export function registerItem(program: Command): void {
  const item = program.command('item').description('file work items and act on them');
  registerItemRun(item);
  registerItemSetup(item);

  item
    .command('create')
    .argument('<title>', 'one line of plain text')
    .description('file a work item, paused')
    .option('--repo <path>', 'connected repository (default: the checkout you are in)')
    .option('--chain <id>', "chain to run (default: the repo's default chain)")
    .option('--template <id>', 'older name of --chain')
    .option('--description <text>', 'what the work is about')
    .option('--spec <file>', 'attach a spec (a file inside the repository)')
    .option('--plan <file>', 'attach a plan (a file inside the repository)')
    .option('--budget <usd>', "the item's own dollar cap, or none", usd)
    .option('--json', 'print the API answer')
    .action((title: string, opts: CreateOpts) =>
      runVerb(async () => {
        const repo = opts.repo ? resolve(opts.repo) : repoOfCwd();
        if (!repo) {
          process.stderr.write('jig: not in a git checkout; pass --repo\n');
          return EXIT_USAGE;
        }
        if (opts.chain && opts.template && opts.chain !== opts.template) {
          process.stderr.write('jig: --chain and --template name different chains; pass one\n');
          return EXIT_USAGE;
        }
        const attachments: Record<string, { path: string }> = {};
        try {
          if (opts.spec) attachments.spec = { path: inRepo(opts.spec, repo) };
          if (opts.plan) attachments.plan = { path: inRepo(opts.plan, repo) };
        } catch (err) {
          process.stderr.write(`jig: ${(err as Error).message}\n`);
          return EXIT_USAGE;
        }
        const created = await createItem(new JigClient(), {
          title,
          repo,
          chain: opts.chain ?? opts.template,
          description: opts.description,
          attachments: Object.keys(attachments).length > 0 ? attachments : undefined,
          budget_usd: opts.budget,
        });
        if (opts.json) printJson(created);
        else
          process.stdout.write(
            `filed ${created.id} "${created.title}" on ${created.chain}, ${created.status}\n`,
          );
        return EXIT_OK;
      }),
    );

  const moves: { move: ItemMove; past: string; about: string }[] = [
    { move: 'cancel', past: 'cancelled', about: 'end an item; its worktree and branch are kept' },
    { move: 'complete', past: 'completed', about: 'end an item as completed by hand' },
    {
      move: 'archive',
      past: 'archived',
      about: 'archive a completed or cancelled item (reclaims its worktree)',
    },
    { move: 'restore', past: 'restored', about: 'bring an archived item back under Done' },
    { move: 'abandon', past: 'abandoned', about: 'end an item and DELETE its worktree and branch' },
  ];
  item
    .command('escalate')
    .argument('<id>', 'work item id')
    .description('ask an agent to help with a stopped item (or --stop the running turn)')
    .option('--message <text>', 'what the agent should look at or do')
    .option('--stop', 'end the running escalation turn')
    .option('--json', 'print the API answer')
    .action((id: string, opts: { message?: string; stop?: boolean; json?: boolean }) =>
      runVerb(async () => {
        if (opts.stop) {
          const res = await stopEscalation(new JigClient(), id);
          if (opts.json) printJson(res);
          else process.stdout.write(`stopped escalation ${res.stopped} of ${id}\n`);
          return EXIT_OK;
        }
        if (!opts.message?.trim()) {
          process.stderr.write('jig: escalate needs --message TEXT (or --stop)\n');
          return EXIT_USAGE;
        }
        const res = await escalateItem(new JigClient(), id, opts.message);
        if (opts.json) printJson(res);
        else process.stdout.write(`escalated ${id}: session ${res.session} on ${res.harness}\n`);
        return EXIT_OK;
      }),
    );
  for (const m of moves) {
    const cmd = item
      .command(m.move)
      .argument('<id>', 'work item id')
      .description(m.about)
      .option('--reason <text>', m.move === 'abandon' ? 'why (required)' : 'why')
      .option('--json', 'print the API answer');
    if (m.move === 'abandon') cmd.option('--yes', 'confirm: the worktree and branch are deleted');
    cmd.action((id: string, opts: { reason?: string; json?: boolean; yes?: boolean }) =>
      runVerb(async () => {
        if (m.move === 'abandon' && (!opts.reason || !opts.yes)) {
          process.stderr.write(
            'jig: abandon deletes the worktree and branch; pass --reason TEXT and --yes\n',
          );
          return EXIT_USAGE;
        }
        const res = await moveItem(new JigClient(), id, m.move, opts.reason);
        if (opts.json) printJson(res);
        else process.stdout.write(`${m.past} ${res.id}\n`);
        return EXIT_OK;
      }),
    );
  }
}
