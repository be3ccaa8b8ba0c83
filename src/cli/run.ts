import { buildProgram } from './program.js';

/**
 * Runs one `jig` command line (`argv` as process.argv has it: node, the script, then the words).
 * `main.ts` runs it once per process; the test suite's CLI host runs many in one process
 * (test/helpers/cli-host.mjs), so each run builds its own command tree.
 */
export async function runCli(argv: string[]): Promise<void> {
  const program = buildProgram();
  // Two homes and one port: say so once, before the answer is read as this home's. Set when a verb
  // runs, not at start: the client loads with the verb's code (lazy.ts). `completion` asks no server.
  program.hook('preAction', async (_program, verb) => {
    if (verb.name() === 'completion') return;
    const { JigClient } = await import('../client/http.js');
    JigClient.defaultOnOtherHome = (url, home) => {
      process.stderr.write(
        `jig: note: the server at ${url} runs on another home than this CLI's (${home}); ` +
          'set JIG_HOME to its home, or JIG_URL to pick a server on purpose\n',
      );
    };
  });
  // Bare `jig` is `jig admin start`, as in the original.
  await program.parseAsync(argv.length <= 2 ? [...argv, 'admin', 'start'] : argv);
}
