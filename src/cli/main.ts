import { buildProgram } from './program.js';

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
const argv = process.argv.length <= 2 ? [...process.argv, 'admin', 'start'] : process.argv;
// Not awaited at the top level: `jig serve` runs from a CommonJS bundle (scripts/bundle.mjs, ADR
// 0028), which has none. A rejection still ends the process with its stack and exit code 1.
void program.parseAsync(argv);
