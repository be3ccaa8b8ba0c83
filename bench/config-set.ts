/** The generated config set the config benchmarks share: the seeded files plus 50 chains × 12 nodes. */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ConfigTexts } from '../src/core/config/validate-set.js';

const root = resolve(import.meta.dirname, '..');
export const CHAINS = 50;
export const NODES = 12;

export const seeded = (f: string): string => readFileSync(join(root, 'defaults', 'config', f), 'utf8');

/** One chain of twelve nodes: library nodes, inline steps on library tasks, commands and gates. */
function chainText(c: number): string {
  const lines = [`description: Generated chain ${c} for the config-load benchmark.`, 'nodes:'];
  let lastExec = '';
  for (let i = 0; i < NODES; i++) {
    const id = `n${i}`;
    switch (i % 4) {
      case 0:
        lines.push(`  - id: ${id}`, `    extends: implementation`, `    description: Implement part ${i}.`);
        lastExec = id;
        break;
      case 1:
        lines.push(
          `  - id: ${id}`,
          '    kind: exec',
          `    description: Review part ${i}.`,
          '    policy: {time_cap_minutes: 200}',
          '    steps:',
          '      - id: check',
          '        tasks:',
          '          - id: verify',
          '            extends: verify_changed_scopes',
          '      - id: review',
          '        tasks:',
          '          - id: code_review',
          '            extends: code_review',
          '            policy: {time_cap_minutes: 60}',
          '          - id: second_opinion',
          '            extends: code_review',
          '            profile: fast',
        );
        lastExec = id;
        break;
      case 2:
        lines.push(
          `  - id: ${id}`,
          '    kind: gate',
          `    message: Approve part ${i}, or send it back.`,
          `    reject_to: ${lastExec}`,
        );
        break;
      default:
        lines.push(
          `  - id: ${id}`,
          '    kind: exec',
          `    description: Build part ${i}.`,
          '    tasks:',
          '      - id: build',
          '        kind: subprocess',
          `        run: npm run build -- --part ${i}`,
          '      - id: lint',
          '        kind: subprocess',
          "        argv: [npx, eslint, '.']",
        );
        lastExec = id;
    }
  }
  return `${lines.join('\n')}\n`;
}

export function texts(): ConfigTexts {
  const chains: Record<string, string> = {};
  for (let c = 0; c < CHAINS; c++) chains[`gen-${String(c).padStart(2, '0')}`] = chainText(c);
  return {
    library: seeded('library.yaml'),
    chains,
    harnesses: seeded('harnesses.yaml'),
    policy: seeded('policy.yaml'),
    repos: seeded('repos.yaml'),
    intake: seeded('intake.yaml'),
  };
}

let runs = 0;
const marked = (t: string | null | undefined): string | null => (t == null ? null : `${t}\n# run ${runs}\n`);

/**
 * The same set with a comment added to every file, new on each call: parses are memoised by text
 * (core/config/text-memo.ts), so a baseline that checks a set "once" must not find it parsed.
 */
export function freshTexts(set: ConfigTexts): ConfigTexts {
  runs++;
  return {
    library: marked(set.library),
    chains: Object.fromEntries(Object.entries(set.chains).map(([id, t]) => [id, marked(t)!])),
    harnesses: marked(set.harnesses),
    policy: marked(set.policy),
    repos: marked(set.repos),
    intake: marked(set.intake),
  };
}
