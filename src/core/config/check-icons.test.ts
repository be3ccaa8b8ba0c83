import { describe, expect, it } from 'vitest';
import { KNOWN_ICONS } from '../../contract/config/icons.js';
import { formatProblem } from '../../contract/problems.js';
import { validateConfigSet } from './validate-set.js';

const LIBRARY = `
tasks:
  run_tests:
    kind: subprocess
    run: npm test
    icon: test-tube
  lint:
    kind: subprocess
    run: npm run lint
    icon: xyzzy-qq
`;
const CHAIN = `
nodes:
  - id: build
    kind: exec
    icon: hamer
    steps:
      - id: test
        icon: sparkles
        tasks:
          - id: run
            extends: run_tests
            icon: git-merg
          - id: lint
            extends: lint
`;

describe('unknown icons', () => {
  const set = validateConfigSet({ library: LIBRARY, chains: { c: CHAIN } });

  it('are warnings with "did you mean", never problems', () => {
    expect(set.problems).toEqual([]);
    expect(set.warnings.map(formatProblem)).toEqual([
      'library.yaml:10:11: tasks.lint.icon: icon `xyzzy-qq` is not a known icon; the board shows a neutral icon',
      'chains/c.yaml:5:11: build.icon: icon `hamer` is not a known icon; did you mean `hammer`?; the board shows a neutral icon',
      'chains/c.yaml:12:19: build.test.run.icon: icon `git-merg` is not a known icon; did you mean `git-merge`?; the board shows a neutral icon',
    ]);
  });
  it('are warned about once, in the file that writes them', () => {
    expect(set.files['chains/c.yaml']!.warnings).toHaveLength(2);
    expect(set.files['library.yaml']!.warnings).toHaveLength(1);
  });
  it('the known set is kebab-case and without duplicates', () => {
    expect(new Set(KNOWN_ICONS).size).toBe(KNOWN_ICONS.length);
    for (const i of KNOWN_ICONS) expect(i).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });
});
