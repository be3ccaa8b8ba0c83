import type { Command } from 'commander';
import { later } from '../lazy.js';
import { registerRepoConnect } from './repo-connect.js';
import { registerRepoWorktree } from './repo-worktree.js';

export function registerRepo(program: Command): void {
  const repo = program
    .command('repo')
    .description("connect and list repositories; find and open an item's worktree");

  registerRepoConnect(repo);

  repo
    .command('list')
    .description('list connected repositories (--all adds those Jig found by itself, such as submodules)')
    .option('--all', 'also the repositories Jig found by itself (managed: false)')
    .option('--json', 'print the API answer (its repos narrowed the same way)')
    .action(later(() => import('./repo-actions.js'), 'repoList'));

  repo
    .command('disconnect')
    .argument('[path]', 'repository to disconnect (default: the checkout you are in)')
    .description('disconnect a repository (refused while its items are not done, cancelled or abandoned)')
    .option('--json', 'print a JSON answer')
    .action(later(() => import('./repo-actions.js'), 'repoDisconnect'));

  repo
    .command('forge')
    .argument('[path]', 'connected repository (default: the checkout you are in)')
    .description(
      "say whether merge requests can work from a repository: its forge, project, API base and the token's source; exits 1 when not",
    )
    .option('--json', 'print the API answer')
    .action(later(() => import('./repo-actions.js'), 'repoForge'));

  registerRepoWorktree(repo);
}
