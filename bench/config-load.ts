/**
 * Loading and resolving a large config set through `validateConfigSet` (every file, extends,
 * canonical paths, checks across files), beside the raw `yaml` parse of the same texts in the
 * same run. The set: the seeded library, harnesses, policy, repos and intake, plus a generated
 * library of 50 chains of 12 nodes each. Run: npm run bench -- config-load
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { validateConfigSet, type ConfigTexts } from '../src/core/config/validate-set.js';

const root = resolve(import.meta.dirname, '..');
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const CHAINS = 50;
const NODES = 12;

const seeded = (f: string): string => readFileSync(join(root, 'defaults', 'config', f), 'utf8');

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

function texts(): ConfigTexts {
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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function time(fn: () => void): number[] {
  fn(); // warm up: the first call also compiles the code paths
  const out: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    fn();
    out.push(performance.now() - t0);
  }
  return out;
}

const set = texts();
const all = [
  set.library!,
  ...Object.values(set.chains),
  set.harnesses!,
  set.policy!,
  set.repos!,
  set.intake!,
];
const bytes = all.reduce((n, t) => n + Buffer.byteLength(t), 0);

const check = validateConfigSet(set);
const resolved = Object.values(check.chains).filter((c) => c.resolved).length;
if (check.problems.length > 0 || resolved !== CHAINS) {
  console.error(check.problems.slice(0, 5));
  throw new Error(`the generated set should resolve cleanly (${resolved}/${CHAINS} chains resolved)`);
}
const tasks = Object.values(check.chains).reduce(
  (n, c) =>
    n +
    c.resolved!.nodes.reduce(
      (m, node) => m + (node.kind === 'exec' ? node.steps.flatMap((s) => s.tasks).length : 0),
      0,
    ),
  0,
);

const raw = median(time(() => all.forEach((t) => parse(t))));
const full = median(time(() => validateConfigSet(set)));
console.log(
  `config set: ${all.length} files, ${(bytes / 1024).toFixed(0)} KiB; ${CHAINS} chains x ${NODES} nodes, ${tasks} tasks in their main plans`,
);
console.log(`raw yaml parse (yaml.parse per file)    median ${raw.toFixed(1)} ms   (${RUNS} runs)`);
console.log(`validateConfigSet (load + resolve + all checks) median ${full.toFixed(1)} ms   (${RUNS} runs)`);
console.log(`ratio validateConfigSet/raw parse: ${(full / raw).toFixed(2)}x`);

// The seeded set (three chains): what each /api/templates read and each reload pays on a new home.
const seededSet: ConfigTexts = { ...set, chains: {} };
for (const id of ['default', 'merge-request', 'quick-task'])
  seededSet.chains[id] = seeded(`chains/${id}.yaml`);
const seededAll = [
  seededSet.library!,
  ...Object.values(seededSet.chains),
  set.harnesses!,
  set.policy!,
  set.repos!,
  set.intake!,
];
const seededRaw = median(time(() => seededAll.forEach((t) => parse(t))));
const seededFull = median(time(() => validateConfigSet(seededSet)));
console.log(
  `seeded set (${seededAll.length} files): raw parse ${seededRaw.toFixed(1)} ms, validateConfigSet ${seededFull.toFixed(1)} ms, ratio ${(seededFull / seededRaw).toFixed(2)}x`,
);
