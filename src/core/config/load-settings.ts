import { AccessFile } from '../../contract/config/access.js';
import { HarnessesFile } from '../../contract/config/harnesses.js';
import { IntakeFile } from '../../contract/config/intake.js';
import { RETIRED_REPO_KEYS, ReposFile } from '../../contract/config/repos.js';
import { ThemeFile } from '../../contract/config/theme.js';
import type { Problem } from '../../contract/problems.js';
import { checkPolicyFile, policyKeyHint } from '../policy/policy-file.js';
import { PolicyFile } from '../../contract/config/policy.js';
import { loadFile, type FileLoad } from './load-file.js';
import { checkSandbox } from '../sandbox/check.js';
import { locate, type ANode, type PathSeg } from './tree.js';
import { describePlain } from './validate-tree.js';

/** Loaders of the settings files, one per file; each returns its model or null, with problems. */

function at(
  tree: ANode,
  file: string,
  path: PathSeg[],
  message: string,
  mode: 'key' | 'value' = 'key',
): Problem {
  const where = locate(tree, path, mode);
  return { ...describePlain(null, path), message, ...where, file: where.file || file };
}

export function loadHarnesses(text: string | null): FileLoad<HarnessesFile> {
  return loadFile('harnesses.yaml', text, HarnessesFile, {
    rules: (m, tree, file) => {
      const out: Problem[] = [];
      for (const [name, p] of Object.entries(m.profiles)) {
        const base: PathSeg[] = ['profiles', name];
        if (p.providers && (p.model || p.effort)) {
          out.push(
            at(
              tree,
              file,
              [...base, p.model ? 'model' : 'effort'],
              'write a profile with `providers` or with the older `model` map (and `effort`), not both',
            ),
          );
        } else if (!p.providers && !p.model) {
          out.push(at(tree, file, base, 'a profile needs `providers` (per provider `{model, effort}`)'));
        }
        p.fallback?.forEach((f, i) => {
          if (f.profile && (f.model || f.effort)) {
            out.push(
              at(
                tree,
                file,
                [...base, 'fallback', i, f.model ? 'model' : 'effort'],
                'set `profile` or `model`/`effort`, not both',
              ),
            );
          }
        });
      }
      return out;
    },
  });
}

export function loadRepos(text: string | null): FileLoad<ReposFile> {
  const load = loadFile('repos.yaml', text, ReposFile, {
    hint: (_data, objectPath, key) =>
      objectPath.length === 2 &&
      objectPath[0] === 'repos' &&
      (RETIRED_REPO_KEYS as readonly string[]).includes(key)
        ? { message: `\`${key}\` is retired: it is ignored, and can be removed`, warning: true }
        : undefined,
    rules: (m, tree, file) => {
      const out: Problem[] = [];
      m.repos.forEach((r, i) => {
        for (const [key, sb] of [
          [['sandbox'], r.sandbox],
          [['policy', 'sandbox'], r.policy?.sandbox],
        ] as const)
          if (sb)
            for (const p of checkSandbox(sb))
              out.push(at(tree, file, ['repos', i, ...key, ...p.path], p.message, p.mode));
        if (r.default_chain && r.default_chain_template && r.default_chain !== r.default_chain_template) {
          out.push(
            at(
              tree,
              file,
              ['repos', i, 'default_chain_template'],
              `\`default_chain_template\` (older name) names \`${r.default_chain_template}\` but \`default_chain\` names \`${r.default_chain}\`; keep \`default_chain\``,
            ),
          );
        }
      });
      return out;
    },
  });
  // The older name is still read: the model answers it as default_chain.
  load.model?.repos.forEach((r, i) => {
    if (r.default_chain_template !== undefined) {
      if (r.default_chain === undefined) r.default_chain = r.default_chain_template;
      delete r.default_chain_template;
      if (load.tree)
        load.warnings.push(
          at(
            load.tree,
            load.file,
            ['repos', i, 'default_chain_template'],
            '`default_chain_template` is the older name of `default_chain`; it is read as that',
          ),
        );
    }
  });
  return load;
}

export function loadPolicy(text: string | null): FileLoad<PolicyFile> {
  return loadFile('policy.yaml', text, PolicyFile, { hint: policyKeyHint, rules: checkPolicyFile });
}

export function loadIntake(text: string | null): FileLoad<IntakeFile> {
  const load = loadFile('intake.yaml', text, IntakeFile);
  if (load.model?.max_concurrent !== undefined && load.tree) {
    load.warnings.push(
      at(
        load.tree,
        load.file,
        ['max_concurrent'],
        '`max_concurrent` moved to policy.yaml; it is read from here only while policy.yaml has none',
      ),
    );
  }
  return load;
}

export function loadTheme(text: string | null): FileLoad<ThemeFile> {
  return loadFile('theme.yaml', text, ThemeFile);
}

export function loadAccess(text: string | null): FileLoad<AccessFile> {
  return loadFile('access.yaml', text, AccessFile);
}
