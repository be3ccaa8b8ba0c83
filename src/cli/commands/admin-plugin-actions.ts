import { resolve } from 'node:path';
import { EXIT_FAIL, EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';
import { repoOfCwd } from '../repo-of-cwd.js';
import { filesLine, installClaudePlugin } from './claude-plugin-install.js';

/** `jig admin plugin install-claude`. */
export function pluginInstallClaude(opts: {
  repo?: string | boolean;
  force?: boolean;
  json?: boolean;
}): Promise<void> {
  return runVerb(async () => {
    let repo: string | null = null;
    if (typeof opts.repo === 'string') repo = resolve(opts.repo);
    else if (opts.repo === true) {
      repo = repoOfCwd();
      if (!repo) {
        process.stderr.write('jig: --repo: not in a git checkout; pass --repo PATH\n');
        return EXIT_USAGE;
      }
    }
    const p = installClaudePlugin(repo, opts.force === true);
    if (opts.json) printJson(p);
    else {
      const lines = [`plugin: ${filesLine(p)}`, `claude plugin: ${p.claude.line}`];
      if (p.claude.state === 'changed' || (p.claude.state === 'unchanged' && p.files === 'written'))
        lines.push('restart Claude Code to load the plugin');
      process.stdout.write(`${lines.join('\n')}\n`);
    }
    return p.claude.state === 'failed' ? EXIT_FAIL : EXIT_OK;
  });
}
