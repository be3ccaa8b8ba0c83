import type { Command } from 'commander';
import { later } from '../lazy.js';

export function registerViewLogs(view: Command): void {
  view
    .command('logs')
    .argument('[id]', 'work item id (default: the item of the worktree you are in)')
    .description("a task session's output (default: the item's latest session); -f follows it")
    .addHelpText(
      'after',
      '\nWith -f every session of the item is read as it writes (a header line marks each switch\n' +
        'between sessions) until the item ends: exit 0 when it completed, 1 when it was cancelled or\n' +
        'abandoned. With --session, -f ends when that session exits: exit 0 when it exited 0, else 1.',
    )
    .option('--session <id>', 'which session (`--list` shows them)')
    .option('-n, --lines <n>', 'only the last N lines')
    .option('-f, --follow', 'keep printing output as it is written')
    .option('--list', 'list the sessions instead')
    .option('--json', 'NDJSON: one {session, task_path, line} per line (with --list: the API answer)')
    .action(later(() => import('./view-logs-actions.js'), 'viewLogs'));
}
