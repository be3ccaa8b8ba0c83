import { buildProgram } from './program.js';

const program = buildProgram();
// Bare `jig` is `jig admin start`, as in the original.
const argv = process.argv.length <= 2 ? [...process.argv, 'admin', 'start'] : process.argv;
await program.parseAsync(argv);
