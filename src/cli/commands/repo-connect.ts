import type { Command } from 'commander';
import { later } from '../lazy.js';

export function registerRepoConnect(repo: Command): void {
  repo
    .command('connect')
    .argument('[path]', 'repository to connect (default: the checkout you are in)')
    .description(
      'connect a repository, or re-probe a connected one: shows what it detected and asks first ' +
        '(-y connects without asking; with no terminal, -y is required)',
    )
    .option('--test-command <cmd>', 'what verification runs')
    .option('--setup-command <cmd>', 'what runs in each new worktree ("" for nothing)')
    .option('--no-tests', 'the repository has no tests (test_command: "")')
    .option('--chain <id>', 'default chain for new items')
    .option('--name <name>', 'display name')
    .option(
      '--verify',
      'first run the setup and test commands once in a throwaway worktree; connect only if they pass',
    )
    .option('-y, --yes', 'connect without asking')
    .option('--json', 'print the API answer')
    .action(later(() => import('./repo-connect-actions.js'), 'repoConnect'));
}
