import { Option, type Command } from 'commander';
import { later } from '../lazy.js';
import { EDITORS } from './repo-editor.js';

export function registerRepoWorktree(repo: Command): void {
  repo
    .command('path')
    .alias('cd')
    .argument('[id]', 'work item id (default: the item of the worktree you are in)')
    .description('print an item\'s worktree path (cd "$(jig repo path ID)"); --shell starts a shell there')
    .option('--shell', 'start your shell ($SHELL) in the worktree; exit it to come back')
    .option('--json', 'print {id, path, branch, base_ref}')
    .action(later(() => import('./repo-worktree-actions.js'), 'repoPath'));

  repo
    .command('open')
    .argument('[id]', 'work item id (default: the item of the worktree you are in)')
    .description("open an item's worktree in an editor (default: JIG_EDITOR, else code)")
    .addOption(new Option('--editor <name>', 'which editor').choices(EDITORS))
    .option('--json', 'print {id, path, editor}')
    .action(later(() => import('./repo-worktree-actions.js'), 'repoOpen'));
}
