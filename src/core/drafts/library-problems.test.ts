import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateConfigSet, type ConfigTexts } from '../config/validate-set.js';
import { libraryProblems } from './library-problems.js';

// The config Jig seeds a new home with: a library and three chains that all resolve.
const DEFAULTS = join(import.meta.dirname, '../../../defaults/config');
const read = (name: string): string => readFileSync(join(DEFAULTS, name), 'utf8');
const defaults: ConfigTexts = {
  library: read('library.yaml'),
  chains: Object.fromEntries(
    readdirSync(join(DEFAULTS, 'chains')).map((f) => [f.replace(/\.yaml$/, ''), read(`chains/${f}`)]),
  ),
  harnesses: read('harnesses.yaml'),
  policy: read('policy.yaml'),
  repos: read('repos.yaml'),
  intake: read('intake.yaml'),
};

const LIBRARY = `tasks:
  base:
    kind: agent
    prompt: do it
  reviewer:
    extends: base
    steering: [standards, gone]
  implementer:
    extends: missing
  slow:
    kind: agent
    prompt: take your time
    policy:
      time_cap_minutes: 500
nodes:
  verification:
    steps:
      - id: review
        tasks:
          - id: code_review
            extends: nothing_here
steering:
  standards:
    instructions: Follow the house style.
`;

const CHAINS = {
  quick: `nodes:
  - id: build
    tasks:
      - id: implement
        extends: coder
        steering: [house]
  - id: verify
    extends: verification
`,
  slow: `nodes:
  - id: build
    tasks:
      - id: work
        extends: slow
      - id: check
        kind: agent
        prompt: check it
        policy:
          time_cap_minutes: 90
`,
};

const REPOS = `repos:
  - path: /src/web
    setup_command: ""
    steering: [standards, legacy]
  - path: /src/api
    setup_command: ""
    default_chain: nowhere
    steering: [house]
`;

const POLICY = `maxima:
  tasks:
    time_cap_minutes: 60
`;

describe('libraryProblems', () => {
  it('finds none in the shipped config', () => {
    expect(libraryProblems(validateConfigSet(defaults))).toEqual([]);
  });

  it('tags library.yaml’s own problems with their component, each once however many chains repeat it', () => {
    const texts: ConfigTexts = { library: LIBRARY, chains: { quick: CHAINS.quick } };
    expect(libraryProblems(validateConfigSet(texts))).toEqual([
      {
        path: 'nodes.verification.review.code_review',
        field: 'extends',
        message: 'extends `nothing_here`: no library task has that name',
        file: 'library.yaml',
        line: 21,
        col: 22,
        chain: null,
        repo: null,
        component: 'nodes.verification',
      },
      {
        path: 'tasks.implementer',
        field: 'extends',
        message: 'extends `missing`: no library task has that name',
        file: 'library.yaml',
        line: 9,
        col: 14,
        chain: null,
        repo: null,
        component: 'tasks.implementer',
      },
      {
        path: 'tasks.reviewer',
        field: 'steering',
        message: 'steering `gone` is not in library.yaml `steering:`',
        file: 'library.yaml',
        line: 7,
        col: 27,
        chain: null,
        repo: null,
        component: 'tasks.reviewer',
      },
      {
        path: 'build.main.implement',
        field: 'extends',
        message: 'extends `coder`: no library task has that name',
        file: 'chains/quick.yaml',
        line: 5,
        col: 18,
        chain: 'quick',
        repo: null,
        component: 'tasks.coder',
      },
      {
        path: 'build.main.implement',
        field: 'steering',
        message: 'steering `house` is not in library.yaml `steering:`',
        file: 'chains/quick.yaml',
        line: 6,
        col: 20,
        chain: 'quick',
        repo: null,
        component: 'steering.house',
      },
    ]);
  });

  it('tags a chain’s problem with the chain, and a repo’s steering problem with the repo, at `steering`', () => {
    const library =
      'tasks:\n  slow:\n    kind: agent\n    prompt: wait\n    policy:\n      time_cap_minutes: 500\n';
    const texts: ConfigTexts = {
      library: `${library}steering:\n  standards:\n    instructions: Follow the house style.\n`,
      chains: { slow: CHAINS.slow },
      repos: REPOS,
      policy: POLICY,
    };
    // The repo's default_chain problem is not the library's, so it is left out.
    expect(libraryProblems(validateConfigSet(texts))).toEqual([
      {
        path: 'build.main.work',
        field: 'policy.time_cap_minutes',
        message: 'chain `slow`: time_cap_minutes 500 exceeds maxima.tasks.time_cap_minutes 60',
        file: 'library.yaml',
        line: 6,
        col: 25,
        chain: 'slow',
        repo: null,
        component: 'tasks.slow',
      },
      {
        path: 'build.main.check',
        field: 'policy.time_cap_minutes',
        message: 'chain `slow`: time_cap_minutes 90 exceeds maxima.tasks.time_cap_minutes 60',
        file: 'chains/slow.yaml',
        line: 10,
        col: 29,
        chain: 'slow',
        repo: null,
        component: null,
      },
      {
        path: 'steering',
        field: '1',
        message: 'repo `/src/web`: steering `legacy` is not in library.yaml `steering:`',
        file: 'repos.yaml',
        line: 4,
        col: 27,
        chain: null,
        repo: '/src/web',
        component: 'steering.legacy',
      },
      {
        path: 'steering',
        field: '0',
        message: 'repo `/src/api`: steering `house` is not in library.yaml `steering:`',
        file: 'repos.yaml',
        line: 8,
        col: 16,
        chain: null,
        repo: '/src/api',
        component: 'steering.house',
      },
    ]);
  });
});
