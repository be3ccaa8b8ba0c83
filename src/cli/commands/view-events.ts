import type { Command } from 'commander';
import { later } from '../lazy.js';

const collect = (v: string, all: string[]): string[] => [...all, ...v.split(',').filter(Boolean)];

export function registerViewEvents(view: Command): void {
  view
    .command('events')
    .argument('[id]', 'work item id (default: the item of the worktree you are in)')
    .description("an item's events, oldest first; -f follows them until the item ends")
    .addHelpText(
      'after',
      '\nWith -f the command ends when the item ends: exit 0 when it completed, 1 when it was\n' +
        'cancelled or abandoned (or the server closed the stream). A stop at a gate or for a person\n' +
        'does not end it: keep it running while you approve from another terminal.',
    )
    .option('--after <seq>', 'only events after this seq', '0')
    .option(
      '--type <kind>',
      'only events of this kind (repeatable, or comma-separated; see docs/events.md)',
      collect,
      [],
    )
    .option('-f, --follow', 'keep printing events as they are stored, until the item ends')
    .option(
      '--json',
      'the API payload ({events, next_after, next_before}, every page merged); with -f one event per line (NDJSON)',
    )
    .action(later(() => import('./view-events-actions.js'), 'viewEvents'));
}
