import { Argument, Option, type Command } from 'commander';
import { JigClient } from '../../client/http.js';
import { recordTaskProgress } from '../../client/item-acts.js';
import { EXIT_OK, printJson } from '../output.js';
import { itemId } from '../item-of-cwd.js';
import { BadArgument } from './item-setup-args.js';
import { itemVerb, NotInThisBuild } from './item-verb.js';

/*
 * `jig item comment|resolve|reopen|review` (a person's review of an item's changes) and the worker
 * verbs `progress|reply|mr-label` (an agent inside an item's task reporting back). Review threads
 * and merge request labels have no route in this build: those verbs check their arguments as the
 * finished ones will, then fail with exit 1 saying which feature brings them (before looking up the
 * item: nothing they could find would change that answer).
 */

const THREADS = 'review threads';
const REVIEWS = 'reviews';
const FORGE = 'forge merge requests';

const idArg = (): Argument => new Argument('[id]', 'work item id (default: the item of this worktree)');

interface CommentOpts {
  body?: string;
  file?: string;
  lines?: string;
  side?: 'old' | 'new';
  label?: string;
  suggest?: string;
  reply?: string;
  json?: boolean;
}

function checkComment(o: CommentOpts): void {
  if (!o.body?.trim()) throw new BadArgument('comment needs --body TEXT');
  const anchored = o.file !== undefined || o.lines !== undefined || o.side !== undefined;
  if (o.reply !== undefined && (anchored || o.label !== undefined || o.suggest !== undefined))
    throw new BadArgument(
      '--reply answers a thread; it takes no --file, --lines, --side, --label or --suggest',
    );
  if ((o.lines !== undefined || o.side !== undefined) && o.file === undefined)
    throw new BadArgument('--lines and --side place a comment in a file; pass --file PATH');
  if (o.lines !== undefined) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(o.lines);
    if (!m || Number(m[1]) < 1 || (m[2] !== undefined && Number(m[2]) < Number(m[1])))
      throw new BadArgument(`--lines ${o.lines} is not a line or a range A-B (1-based, A <= B)`);
  }
  if (o.suggest !== undefined && o.side === 'old')
    throw new BadArgument('--suggest replaces lines of the new side; it cannot go with --side old');
  if (o.suggest !== undefined && o.lines === undefined)
    throw new BadArgument('--suggest replaces lines; pass --file PATH --lines A-B');
}

export function registerItemReview(item: Command): void {
  item
    .command('comment')
    .addArgument(idArg())
    .description(
      "comment on an item's changes: a new thread, placed in a file or not, or a reply (not in this build)",
    )
    .option('--body <text>', 'the comment (required)')
    .option('--file <path>', 'file of the change the comment is about')
    .option('--lines <A-B>', 'line or range of that file, e.g. 12 or 12-18')
    .addOption(new Option('--side <side>', 'which side of the diff the lines are on').choices(['old', 'new']))
    .addOption(
      new Option('--label <label>', 'what the comment asks for').choices(['must-fix', 'question', 'nit']),
    )
    .option('--suggest <text>', 'replacement text for the lines (new side only)')
    .option('--reply <thread>', 'answer this thread instead of opening one')
    .option('--json', 'print the API answer')
    .action((_given: string | undefined, opts: CommentOpts) =>
      itemVerb(() => {
        checkComment(opts);
        throw new NotInThisBuild('comment', THREADS);
      }),
    );

  for (const [verb, about] of [
    ['resolve', 'mark a review thread resolved (not in this build)'],
    ['reopen', 'open a resolved review thread again (not in this build)'],
  ] as const)
    item
      .command(verb)
      .argument('<thread>', 'thread id (see jig view threads)')
      .addArgument(idArg())
      .description(about)
      .option('--json', 'print the API answer')
      .action(() =>
        itemVerb(() => {
          throw new NotInThisBuild(verb, THREADS);
        }),
      );

  item
    .command('review')
    .addArgument(
      new Argument('<verdict>', 'what the review says').choices(['comment', 'approve', 'request-changes']),
    )
    .addArgument(idArg())
    .description("submit a review of an item's changes, with the open comments (not in this build)")
    .option('--summary <text>', 'the review as a whole')
    .option('--node <node>', 'node whose changes the review is about (default: the latest)')
    .option('--json', 'print the API answer')
    .action((verdict: string, _given: string | undefined, opts: { summary?: string }) =>
      itemVerb(() => {
        if (verdict === 'request-changes' && !opts.summary?.trim())
          throw new BadArgument('review request-changes needs --summary TEXT: what should change');
        throw new NotInThisBuild('review', REVIEWS);
      }),
    );

  item
    .command('progress')
    .argument('<task>', 'the task of the plan the worker starts, e.g. 3 or 2.1')
    .addArgument(idArg())
    .description("worker: say which task of the plan you start (shown on the item's page)")
    .option('--json', 'print the API answer')
    .action((task: string, given: string | undefined, opts: { json?: boolean }) =>
      itemVerb(async () => {
        if (task.trim() === '') throw new BadArgument('progress needs the task, e.g. 3');
        const c = new JigClient();
        const id = await itemId(c, 'progress', given);
        const res = await recordTaskProgress(c, id, task);
        if (opts.json) printJson(res);
        else process.stdout.write(`recorded task ${res.task} started on ${res.work_item_id}\n`);
        return EXIT_OK;
      }),
    );

  item
    .command('reply')
    .argument('<thread>', 'thread id (see jig view threads)')
    .addArgument(idArg())
    .description('worker: answer a review thread on your item (not in this build)')
    .option('--body <text>', 'the answer (required)')
    .addOption(
      new Option('--claim <claim>', 'what you did about it').choices(['fixed', 'answered', 'should_fix']),
    )
    .option('--json', 'print the API answer')
    .action((_thread: string, _given: string | undefined, opts: { body?: string }) =>
      itemVerb(() => {
        if (!opts.body?.trim()) throw new BadArgument('reply needs --body TEXT');
        throw new NotInThisBuild('reply', THREADS);
      }),
    );

  item
    .command('mr-label')
    .argument('<label...>', "labels to put on the item's merge request")
    .description("worker: label your item's merge request (not in this build)")
    .option('--json', 'print the API answer')
    .action(() =>
      itemVerb(() => {
        throw new NotInThisBuild('mr-label', FORGE);
      }),
    );
}
