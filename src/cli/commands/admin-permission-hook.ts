import { Argument, type Command } from 'commander';
import { JigClient } from '../../client/http.js';
import { gateToolCall, hookOutput, type HookCli } from '../../client/permission-hook.js';

/** A hook's input is one tool call; past this it is not one, and reading stops. */
const MAX_INPUT = 4 * 1024 * 1024;

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const b = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += b.length;
    if (size > MAX_INPUT) break;
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

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
    .action(async (agent: HookCli, opts: { failClosed?: boolean }) => {
      const raw = await readStdin();
      const verdict = await gateToolCall(() => new JigClient({ onOtherHome: () => undefined }), {
        cli: agent,
        raw,
        env: process.env,
        failClosed: opts.failClosed === true,
      });
      process.stdout.write(`${hookOutput(agent, verdict)}\n`);
    });
}
