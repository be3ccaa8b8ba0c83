import { Argument, type Command } from 'commander';
import { later } from '../lazy.js';

/**
 * `jig admin permission-hook codex|cursor`: what Jig installs as Codex's and Cursor's pre-tool hook
 * (docs/review.md, "Permission asks"). stdout is the hook protocol, so it prints only the verdict
 * and always exits 0: a failure is a verdict too (no opinion, or a denial with --fail-closed).
 */
export function registerPermissionHook(admin: Command): void {
  admin
    .command('permission-hook')
    .description(
      "answer an agent CLI's pre-tool hook through Jig's permission gate: reads the tool call on stdin, " +
        'prints the verdict in that CLI’s hook format (Jig installs it for a launch whose policy limits tools)',
    )
    .addArgument(new Argument('<agent>', 'the agent CLI whose hook this is').choices(['cursor', 'codex']))
    .option('--fail-closed', 'deny the tool call when the gate cannot decide (default: no opinion)')
    .action(later(() => import('./admin-permission-hook-actions.js'), 'adminPermissionHook'));
}
