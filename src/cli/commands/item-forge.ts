import type { Command } from 'commander';
import { later } from '../lazy.js';

/** `jig item reopen-mr`: a person's answer to an item stopped on a merge request closed on the forge. */
export function registerItemForge(item: Command): void {
  item
    .command('reopen-mr')
    .argument('[id]', 'work item id (default: the item of this worktree)')
    .description(
      "reopen the item's merge request closed on the forge without merging, then retry the item (stop kind mr_closed)",
    )
    .option('--json', 'print the API answer')
    .action(later(() => import('./item-forge-actions.js'), 'itemReopenMr'));
}
