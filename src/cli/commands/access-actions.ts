import { rotateTokens, writePasswordHash, type TokenName } from '../../client/local-access.js';
import { hashPassword } from '../../client/password-hash.js';
import { passwordProblem } from '../../core/perimeter/password-format.js';
import { EXIT_OK, EXIT_USAGE, printJson, runVerb } from '../output.js';

/** Reads one line from the terminal without echoing it. The prompt goes to stderr, never stdout. */
function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  return new Promise((resolve, reject) => {
    let typed = '';
    const finish = (): void => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
    };
    const onData = (chunk: string): void => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          finish();
          resolve(typed);
          return;
        }
        if (ch === '\u0003') {
          finish();
          reject(new Error('cancelled; nothing was changed'));
          return;
        }
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    // Echo goes off before the prompt shows, so nothing typed early is echoed either.
    stdin.setEncoding('utf8');
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
    process.stderr.write(question);
  });
}

async function readStdin(): Promise<string> {
  let text = '';
  process.stdin.setEncoding('utf8');
  for await (const chunk of process.stdin) text += chunk as string;
  // `echo secret | jig admin password --stdin` ends with a line break that is not part of it.
  return text.replace(/\r?\n$/, '');
}

function usage(message: string): number {
  process.stderr.write(`jig: ${message}\n`);
  return EXIT_USAGE;
}

/** `jig admin password`. */
export function adminPassword(opts: { stdin?: boolean; clear?: boolean; json?: boolean }): Promise<void> {
  return runVerb(async () => {
    if (opts.clear && opts.stdin) return usage('--clear and --stdin do not go together');
    let hash: string | null = null;
    if (!opts.clear) {
      let password: string;
      if (opts.stdin) password = await readStdin();
      else if (process.stdin.isTTY) {
        password = await promptHidden('New password: ');
        const again = await promptHidden('Repeat it: ');
        if (again !== password) return usage('the two passwords differ; nothing was changed');
      } else return usage('no terminal to ask in: pass the password on stdin with --stdin');
      const problem = passwordProblem(password);
      if (problem) return usage(`${problem}; nothing was changed`);
      hash = await hashPassword(password);
    }
    const file = writePasswordHash(hash);
    if (opts.json) printJson({ password_set: hash !== null, file });
    else if (hash !== null)
      process.stdout.write(`password set in ${file}; browser sessions made before it have ended\n`);
    else
      process.stdout.write(
        `password cleared in ${file}; remote callers are refused and browser sessions have ended\n`,
      );
    return EXIT_OK;
  });
}

/** `jig admin rotate-tokens`. */
export function adminRotateTokens(opts: { mcp?: boolean; trigger?: boolean; json?: boolean }): Promise<void> {
  return runVerb(async () => {
    const names: TokenName[] =
      !opts.mcp && !opts.trigger
        ? ['mcp', 'trigger']
        : [...(opts.mcp ? ['mcp' as const] : []), ...(opts.trigger ? ['trigger' as const] : [])];
    const written = rotateTokens(names);
    // The tokens themselves are never printed: they are in the files, readable by this user only.
    if (opts.json) printJson({ rotated: names, files: written });
    else for (const n of names) process.stdout.write(`rotated ${n} token: ${written[n]}\n`);
    return EXIT_OK;
  });
}
