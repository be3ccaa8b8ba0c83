import type { Command } from 'commander';
import { later } from '../lazy.js';

/** `jig admin password` and `jig admin rotate-tokens`: this machine's access files. */
export function registerAccess(program: Command): void {
  const admin = program.commands.find((c) => c.name() === 'admin');
  if (!admin) throw new Error('registerAccess needs the admin command registered first');

  admin
    .command('password')
    .description(
      'set the login password (prompted without echo, or read from stdin) or clear it; ' +
        'takes effect at once and ends every browser session',
    )
    .option('--stdin', 'read the password from standard input instead of prompting')
    .option('--clear', 'remove the password: nobody can log in and remote callers are refused')
    .option('--json', 'print the result as JSON')
    .action(later(() => import('./access-actions.js'), 'adminPassword'));

  admin
    .command('rotate-tokens')
    .description(
      'replace the MCP and/or trigger token files (both when neither flag is given); ' +
        'the old token stops working at once',
    )
    .option('--mcp', 'replace run/mcp-token (give it again to every MCP client and script)')
    .option('--trigger', 'replace run/trigger-token (give it again to every webhook sender)')
    .option('--json', 'print the files written as JSON')
    .action(later(() => import('./access-actions.js'), 'adminRotateTokens'));
}
