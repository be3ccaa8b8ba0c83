import type { Command } from 'commander';
import { runVerb } from '../output.js';
import { unavailable } from './view-target.js';

/*
 * Admin verbs whose server side comes with a later feature: they exist with their help (so scripts
 * and docs can name them) and fail with exit 1 saying what brings them, never a fake success.
 * `--json` is taken for the same shape as every other read/act verb; there is nothing to print yet.
 */

export function registerAdminLater(admin: Command): void {
  admin
    .command('reindex')
    .description(
      'rebuild the search index of the connected repositories (not available in this build: exit 1)',
    )
    .option('--repo <path>', 'reindex this connected repository only (default: every one)')
    .option('--json', 'print the API answer')
    .action(() => runVerb(async () => unavailable('admin reindex', 'search')));
}
