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

/** `jig admin permission-hook`. */
export async function adminPermissionHook(agent: HookCli, opts: { failClosed?: boolean }): Promise<void> {
  const raw = await readStdin();
  const verdict = await gateToolCall(() => new JigClient({ onOtherHome: () => undefined }), {
    cli: agent,
    raw,
    env: process.env,
    failClosed: opts.failClosed === true,
  });
  process.stdout.write(`${hookOutput(agent, verdict)}\n`);
}
