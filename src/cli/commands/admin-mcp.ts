import type { Command } from 'commander';
import { registerInit } from './admin-init.js';

/** `jig admin mcp` (the MCP server over stdio) and `jig admin init` (register it with agent CLIs). */
export function registerMcp(admin: Command): void {
  admin
    .command('mcp')
    .description(
      "serve Jig's MCP tools over stdio (what `jig admin init` registers with agent CLIs); the server " +
        'must be running (JIG_URL, JIG_HOME or the default address)',
    )
    .action(async () => {
      // Loaded here, not with the command tree: the MCP SDK is most of what every other verb's
      // start would load for nothing. stdout carries the protocol: nothing else may be written to it.
      const { serveStdio } = await import('../../mcp/stdio.js');
      await serveStdio(admin.parent?.version() ?? '0.0.0');
    });
  registerInit(admin);
}
