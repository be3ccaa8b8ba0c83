import type { Command } from 'commander';
import { later } from '../lazy.js';

export function registerTemplates(admin: Command): void {
  const templates = admin.command('templates').description('check and read chains and the library');

  templates
    .command('lint')
    .description(
      'check every config file as one set, without a server: prints file:line:col: message per problem; exits 1 on a problem',
    )
    .option(
      '--dir <dir>',
      'config directory (default: $JIG_CONFIG_DIR, else $JIG_HOME/config, else ~/.jig/config)',
    )
    .option('--json', 'print {dir, files, problems, warnings}')
    .action(later(() => import('./templates-actions.js'), 'templatesLint'));

  templates
    .command('show')
    .argument('<id>', 'chain id')
    .description(
      'show a chain: its nodes and tasks by path, or with --resolved the whole chain with extends expanded',
    )
    .option('--resolved', 'print the resolved chain (YAML; JSON with --json)')
    .option('--json', 'print the API answer')
    .action(later(() => import('./templates-actions.js'), 'templatesShow'));

  templates
    .command('list')
    .description('list the chains: id, nodes, gates, whether each resolves and runs, and its description')
    .option('--json', 'print the API answer')
    .action(later(() => import('./templates-actions.js'), 'templatesList'));

  templates
    .command('test')
    .description(
      'run every chain test beside its chain (chains/<id>.tests/*.yaml) on the server; exits 1 when one fails (docs/chain-tests.md)',
    )
    .option(
      '--dir <dir>',
      'config directory (default: $JIG_CONFIG_DIR, else $JIG_HOME/config, else ~/.jig/config)',
    )
    .option('--repo <path>', 'the connected repository to clone for each run (default: the only one)')
    .option('--json', 'print {tests: [{chain, file, ok, report | problem}], failed}')
    .action(later(() => import('./chain-test-actions.js'), 'templatesTest'));

  templates
    .command('library')
    .argument('[ref]', 'one component, `<section>.<name>` (e.g. tasks.implementer, nodes.verification)')
    .description('list the library components and what uses each, or show one component (YAML)')
    .option('--json', 'print the API answer')
    .action(later(() => import('./templates-actions.js'), 'templatesLibrary'));
}
