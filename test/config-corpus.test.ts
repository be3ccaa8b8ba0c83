import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatProblem, type Problem } from '../src/contract/problems.js';
import { validateConfigSet } from '../src/core/config/validate-set.js';
import { loopLimits } from '../src/core/policy/loops.js';
import { caseTexts, cases, CORPUS } from './config-corpus.js';

/*
 * The golden corpus (test/fixtures/config/): each case is a folder of files laid over the seeded
 * set. `mistakes/<case>/expected.json` is the problem the case must produce, exactly (message,
 * file, line, col, path, field); `valid/<case>` must load with no problems.
 * Set UPDATE_GOLDEN=1 to rewrite valid/every-component/expected.json.
 */

const mistakes = cases('mistakes');

describe('mistake corpus', () => {
  it('has at least 25 cases', () => expect(mistakes.length).toBeGreaterThanOrEqual(25));
  for (const c of mistakes) {
    it(c.name, () => {
      const set = validateConfigSet(caseTexts(c.dir));
      const expected = c.expected as Problem;
      expect(set.problems.map(formatProblem)).toContain(formatProblem(expected));
      expect(set.problems).toContainEqual(expected);
    });
  }
});

describe('valid corpus', () => {
  it('every-component resolves to the expected model', () => {
    const dir = join(CORPUS, 'valid', 'every-component');
    const set = validateConfigSet(caseTexts(dir));
    expect(set.problems.map(formatProblem)).toEqual([]);
    const resolved = set.chains.release!.resolved;
    const golden = join(dir, 'expected.json');
    if (process.env.UPDATE_GOLDEN) writeFileSync(golden, `${JSON.stringify(resolved, null, 2)}\n`);
    expect(resolved).toEqual(JSON.parse(readFileSync(golden, 'utf8')));
  });

  it('the commented defaults/maxima of the seeded policy.yaml fit the seeded chains', () => {
    const set = validateConfigSet(caseTexts(join(CORPUS, 'valid', 'policy-examples')));
    expect(set.problems.map(formatProblem)).toEqual([]);
    expect(set.policy.model?.maxima?.tasks?.budget_usd).toBe(10);
    expect(loopLimits(set.chains.default!.checked!, 'verification', set.policy.model)).toMatchObject({
      attempts: { value: 2, source: 'loop' },
      wall_clock_s: { value: 3600, source: 'defaults' },
    });
  });

  it('older forms load with warnings and are read as their new names', () => {
    const set = validateConfigSet(caseTexts(join(CORPUS, 'valid', 'legacy-forms')));
    expect(set.problems.map(formatProblem)).toEqual([]);
    const repo = set.repos.model!.repos[0]!;
    expect(repo.default_chain).toBe('quick-task');
    expect(repo).not.toHaveProperty('default_model');
    expect(set.warnings.map(formatProblem).sort()).toEqual(
      [
        'repos.yaml:5:5: repos.0.default_chain_template: `default_chain_template` is the older name of `default_chain`; it is read as that',
        'repos.yaml:8:5: repos.0.default_model: `default_model` is retired: it is ignored, and can be removed',
        'repos.yaml:9:5: repos.0.submodules: `submodules` is retired: it is ignored, and can be removed',
        'repos.yaml:10:5: repos.0.default_root_merge_policy: `default_root_merge_policy` is retired: it is ignored, and can be removed',
        'repos.yaml:11:5: repos.0.allow_cross_repo: `allow_cross_repo` is retired: it is ignored, and can be removed',
        'policy.yaml:9:5: triggers.0: `triggers:` moved to intake.yaml `schedules:`; this entry still fires',
        'intake.yaml:2:1: max_concurrent: `max_concurrent` moved to policy.yaml; it is read from here only while policy.yaml has none',
      ].sort(),
    );
    expect(set.harnesses.model!.profiles.strong!.model).toEqual({ claude: 'sonnet', codex: 'gpt-5-codex' });
  });
});
