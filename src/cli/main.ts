import { runCli } from './run.js';

// Not awaited at the top level: `jig serve` runs from a CommonJS bundle (scripts/bundle.mjs, ADR
// 0028), which has none. A rejection still ends the process with its stack and exit code 1.
void runCli(process.argv);
