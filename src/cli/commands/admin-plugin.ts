import type { Command } from 'commander';
import { later } from '../lazy.js';

/** `jig admin plugin …`: the plugins Jig ships for agent CLIs. */
export function registerPlugin(admin: Command): void {
  const plugin = admin.command('plugin').description('the plugins Jig ships for agent CLIs');
  plugin
    .command('install-claude')
    .description(
      'write (or refresh) the Claude Code plugin in $JIG_HOME/claude-plugin (a local marketplace: the ' +
        '/jig:* commands and the jig MCP server) and install it with `claude plugin` when claude is on ' +
        'PATH, else print the command that does; exits 1 when the install fails',
    )
    .option(
      '--repo [path]',
      "install for this repository only, in Claude Code's local scope (default: every project)",
    )
    .option('--force', 'replace another Claude Code marketplace named jig')
    .option('--json', 'print {dir, version, commands, files, claude: {state, line, ran}}')
    .action(later(() => import('./admin-plugin-actions.js'), 'pluginInstallClaude'));
}
