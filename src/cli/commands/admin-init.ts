import type { Command } from 'commander';
import { later } from '../lazy.js';

export function registerInit(admin: Command): void {
  admin
    .command('init')
    .description(
      'register `jig admin mcp` with the agent CLIs on PATH (Claude Code, Codex, Gemini, Cursor) and ' +
        'install the Claude Code plugin (/jig:* commands; see `jig admin plugin install-claude`); ' +
        'a second run changes nothing; exits 1 when a registration fails',
    )
    .option('--repo [path]', 'register for this repository only (default: the checkout you are in)')
    .option(
      '--force',
      'replace a different jig entry in the Gemini and Cursor JSON files, and another Claude Code marketplace named jig (Codex TOML and Claude MCP servers are left as they are)',
    )
    .action(later(() => import('./admin-init-actions.js'), 'adminInit'));
}
