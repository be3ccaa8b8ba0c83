import { Argument, Option, type Command } from 'commander';
import { later } from '../lazy.js';

/*
 * `jig item comment|resolve|reopen|review` (a person's review of an item's changes) and the worker
 * verbs `progress|reply|mr-label` (an agent inside an item's task reporting back; inside a task the
 * client names the item in `x-jig-work-item`, so the server records the answer as the agent's).
 */

const idArg = (): Argument => new Argument('[id]', 'work item id (default: the item of this worktree)');

export function registerItemReview(item: Command): void {
  item
    .command('comment')
    .addArgument(idArg())
    .description("comment on an item's changes: a new thread, placed in a file or not, or a reply")
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
    .action(later(() => import('./item-review-actions.js'), 'itemComment'));

  for (const [verb, about] of [
    ['resolve', 'mark a review thread resolved'],
    ['reopen', 'open a resolved review thread again'],
  ] as const)
    item
      .command(verb)
      .argument('<thread>', 'thread id (see jig view threads)')
      .addArgument(idArg())
      .description(about)
      .option('--json', 'print the API answer')
      .action(later(() => import('./item-review-actions.js'), 'itemThreadState', verb));

  item
    .command('review')
    .addArgument(
      new Argument('<verdict>', 'what the review says').choices(['comment', 'approve', 'request-changes']),
    )
    .addArgument(idArg())
    .description(
      "submit a review of an item's changes: approve passes the gate it waits at; request-changes reruns the fix target with the open threads",
    )
    .option('--summary <text>', 'the review as a whole')
    .option('--node <node>', 'request-changes: rerun this node instead of the fix target')
    .option('--json', 'print the API answer')
    .action(later(() => import('./item-review-actions.js'), 'itemReview'));

  item
    .command('progress')
    .argument('<task>', 'the task of the plan the worker starts, e.g. 3 or 2.1')
    .addArgument(idArg())
    .description("worker: say which task of the plan you start (shown on the item's page)")
    .option('--json', 'print the API answer')
    .action(later(() => import('./item-review-actions.js'), 'itemProgress'));

  item
    .command('reply')
    .argument('<thread>', 'thread id (see jig view threads)')
    .addArgument(idArg())
    .description('worker: answer a review thread on your item, saying what you did')
    .option('--body <text>', 'the answer (required)')
    .addOption(
      new Option('--claim <claim>', 'what you did about it').choices(['fixed', 'answered', 'should_fix']),
    )
    .option('--json', 'print the API answer')
    .action(later(() => import('./item-review-actions.js'), 'itemReply'));

  item
    .command('mr-label')
    .argument('<label...>', "the labels the item's merge request should have (the whole set)")
    .description(
      "worker: set the labels of your item's merge request on the forge (a person names it with --item)",
    )
    .option('--item <id>', 'work item id (default: the item of this worktree or task)')
    .option('--json', 'print the API answer')
    .action(later(() => import('./item-review-actions.js'), 'itemMrLabel'));
}
