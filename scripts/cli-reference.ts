import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildProgram } from '../src/cli/program.js';
import { cliReference } from '../src/cli/reference.js';

/** Writes docs/cli.md from the command tree (see src/cli/reference.ts). */
const file = join(import.meta.dirname, '..', 'docs', 'cli.md');
writeFileSync(file, cliReference(buildProgram()));
console.log(`wrote ${file}`);
