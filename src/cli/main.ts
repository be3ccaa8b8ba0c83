import { JigClient } from '../client/http.js';
import { buildProgram } from './program.js';

// Two homes and one port: say so once, before the answer is read as this home's.
JigClient.defaultOnOtherHome = (url, home) => {
  process.stderr.write(
    `jig: note: the server at ${url} runs on another home than this CLI's (${home}); ` +
      'set JIG_HOME to its home, or JIG_URL to pick a server on purpose\n',
  );
};

const program = buildProgram();
// Bare `jig` is `jig admin start`, as in the original.
const argv = process.argv.length <= 2 ? [...process.argv, 'admin', 'start'] : process.argv;
await program.parseAsync(argv);
