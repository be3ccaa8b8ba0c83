import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../src/cli/program.js';
import { cliReference } from '../src/cli/reference.js';

describe('docs/cli.md', () => {
  it('is the command tree as the CLI has it (regenerate: node --import tsx scripts/cli-reference.ts)', () => {
    const page = readFileSync(join(import.meta.dirname, '..', 'docs', 'cli.md'), 'utf8');
    expect(page).toBe(cliReference(buildProgram()));
  });

  it('has a section for every visible verb, the nested ones included', () => {
    const page = cliReference(buildProgram());
    for (const verb of [
      'jig item approve',
      'jig view events',
      'jig repo connect',
      'jig admin doctor',
      'jig completion',
    ])
      expect(page).toContain(`## \`${verb}\``);
  });
});
