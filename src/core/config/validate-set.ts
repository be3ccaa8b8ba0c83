import type { AccessFile } from '../../contract/config/access.js';
import type { HarnessesFile } from '../../contract/config/harnesses.js';
import type { IntakeFile } from '../../contract/config/intake.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { ReposFile } from '../../contract/config/repos.js';
import { CAP_KEYS } from '../../contract/config/scope-policy.js';
import type { ThemeFile } from '../../contract/config/theme.js';
import type { Problem } from '../../contract/problems.js';
import type { AddonLookup } from '../chain/library-index.js';
import { loadChain, type ChainLoad } from '../chain/load-chain.js';
import { loadLibrary, type LibraryLoad } from '../chain/load-library.js';
import { capScopes } from '../policy/caps.js';
import { gateTimeoutChecks } from '../policy/gate-timeout.js';
import { fixLoopKeys } from '../policy/loops.js';
import { toolPolicies } from '../policy/ratchet.js';
import { sameSandbox, sandboxProblems } from '../policy/sandbox.js';
import { walkChain } from '../chain/walk.js';
import { checkIcons } from './check-icons.js';
import { checkReferences, type Known } from './check-references.js';
import type { FileLoad } from './load-file.js';
import { loadAccess, loadHarnesses, loadIntake, loadPolicy, loadRepos, loadTheme } from './load-settings.js';
import { suggest } from './suggest.js';
import { locate } from './tree.js';

/** The text of each config file; null or absent for a file that does not exist. */
export interface ConfigTexts {
  library: string | null;
  /** Chain id (file stem) → text of `chains/<id>.yaml`. */
  chains: Record<string, string>;
  harnesses?: string | null;
  policy?: string | null;
  repos?: string | null;
  intake?: string | null;
  access?: string | null;
  theme?: string | null;
}

export interface ConfigSetOptions {
  /** Answers `<namespace>:<name>` library components of add-ons. */
  addons?: AddonLookup;
  /** Whether a `<namespace>:<name>` chain exists (add-on chains); without it such names are accepted. */
  addonChainExists?: (name: string) => boolean;
}

export interface FileReport {
  model: unknown;
  problems: Problem[];
  warnings: Problem[];
}

export interface ConfigSet {
  library: LibraryLoad;
  chains: Record<string, ChainLoad>;
  harnesses: FileLoad<HarnessesFile>;
  policy: FileLoad<PolicyFile>;
  repos: FileLoad<ReposFile>;
  intake: FileLoad<IntakeFile>;
  access: FileLoad<AccessFile>;
  theme: FileLoad<ThemeFile>;
  /** Per file name (`library.yaml`, `chains/default.yaml`, ...): its model, problems and warnings. */
  files: Record<string, FileReport>;
  /** Every problem of every file, each once. */
  problems: Problem[];
  warnings: Problem[];
}

const dedupe = (ps: Problem[]): Problem[] => {
  const seen = new Set<string>();
  return ps.filter((p) => {
    const k = `${p.file}:${p.line}:${p.col}:${p.path}:${p.message}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
};

/**
 * Validates a whole config set from file texts, pure: each file's model (or null) and problems,
 * then the checks across files (harness, profile and steering names; default chains; schedule
 * chains and repos; loop keys; caps past the maxima; harnesses outside policy).
 */
export function validateConfigSet(texts: ConfigTexts, opts: ConfigSetOptions = {}): ConfigSet {
  const library = loadLibrary(texts.library, opts.addons);
  const chains: Record<string, ChainLoad> = {};
  for (const id of Object.keys(texts.chains).sort()) {
    chains[id] = loadChain(id, texts.chains[id]!, { library: library.index, resolver: library.resolver });
  }
  const harnesses = loadHarnesses(texts.harnesses ?? null);
  const policy = loadPolicy(texts.policy ?? null);
  const repos = loadRepos(texts.repos ?? null);
  const intake = loadIntake(texts.intake ?? null);
  const access = loadAccess(texts.access ?? null);
  const theme = loadTheme(texts.theme ?? null);

  const chainIds = Object.keys(chains);
  const known: Known = {
    harnesses: harnesses.model ? Object.keys(harnesses.model.harnesses) : null,
    profiles: harnesses.model ? Object.keys(harnesses.model.profiles) : null,
    steering: library.index.names.steering,
    steeringExists: (n) => library.index.lookup('steering', n) !== undefined,
  };
  const chainExists = (name: string): boolean =>
    name.includes(':') ? (opts.addonChainExists?.(name) ?? true) : chains[name] !== undefined;

  // Library and chain files: names they use; icons the board does not know (warnings).
  if (library.tree) {
    library.problems.push(...checkReferences(library.tree, library.file, known, true));
    library.warnings.push(...checkIcons(library.tree, library.file, true));
  }
  for (const c of Object.values(chains)) {
    if (c.tree && c.model) {
      c.problems.push(...checkReferences(c.tree, c.file, known, false));
      c.warnings.push(...checkIcons(c.tree, c.file, false));
    }
    if (!c.checked || !c.tree) continue;
    const pol = policy.model;
    const input = { id: c.id, checked: c.checked, tree: c.tree };
    c.problems.push(...capScopes(input, pol).problems, ...sandboxProblems(input));
    const gates = gateTimeoutChecks(input, pol);
    c.problems.push(...gates.problems);
    c.warnings.push(...gates.warnings);
    // A task on a harness its policy does not allow (a `never` harness, or `override` not asked for).
    const tools = toolPolicies(c.checked, pol);
    for (const v of walkChain(c.checked)) {
      const prof = v.value.profile;
      if (
        v.slot === 'auto_review' &&
        typeof prof === 'string' &&
        harnesses.model?.profiles[prof]?.fallback?.length
      ) {
        c.problems.push({
          path: v.path,
          field: 'profile',
          message: `profile \`${prof}\` carries a fallback, which an auto_review task cannot take`,
          ...locate(c.tree, [...v.dataPath, 'profile'], 'value'),
        });
      }
      const h = v.value.harness;
      const allowed = tools.get(v.path)?.allowed_harnesses;
      if (v.kind === 'task' && typeof h === 'string' && allowed && !allowed.includes(h)) {
        c.problems.push({
          path: v.path,
          field: 'harness',
          message: `chain \`${c.id}\`: harness \`${h}\` is not allowed by policy (allowed_harnesses: ${allowed.join(', ') || 'none'})`,
          ...locate(c.tree, [...v.dataPath, 'harness'], 'value'),
        });
      }
    }
  }

  // repos.yaml
  if (repos.model && repos.tree) {
    const tree = repos.tree;
    repos.model.repos.forEach((r, i) => {
      const at = (path: (string | number)[], message: string, mode: 'key' | 'value' = 'value'): Problem => ({
        path: `repos.${i}`,
        field: path.join('.'),
        message: `repo \`${r.path}\`: ${message}`,
        ...locate(tree, ['repos', i, ...path], mode),
      });
      if (r.default_chain && !chainExists(r.default_chain)) {
        repos.problems.push(
          at(
            ['default_chain'],
            `default_chain \`${r.default_chain}\` names no chain${hint(r.default_chain, chainIds)}`,
          ),
        );
      }
      r.steering?.forEach((s, j) => {
        if (!known.steeringExists(s))
          repos.problems.push(
            at(
              ['steering', j],
              `steering \`${s}\` is not in library.yaml \`steering:\`${hint(s, known.steering)}`,
            ),
          );
      });
      if (known.harnesses) {
        for (const h of Object.keys(r.models ?? {})) {
          if (!known.harnesses.includes(h))
            repos.problems.push(
              at(
                ['models', h],
                `models: \`${h}\` is not a harness in harnesses.yaml${hint(h, known.harnesses)}`,
                'key',
              ),
            );
        }
      }
      // The repo layer sits above the chain: its caps are work-item caps, bounded by
      // maxima.work_item (narrower levels are bounded by the smaller of the two, never relaxed).
      const rp = r.policy;
      const maxima = policy.model?.maxima;
      for (const cap of CAP_KEYS) {
        const v = rp?.[cap];
        const max = maxima?.work_item?.[cap];
        if (v !== undefined && max !== undefined && v > max) {
          repos.problems.push(
            at(
              ['policy', cap],
              `policy.${cap} ${v} relaxes policy.yaml maxima.work_item.${cap} ${max}; a repo's policy may only tighten`,
            ),
          );
        }
      }
      for (const k of ['max_attempts', 'timeout_minutes'] as const) {
        const v = rp?.[k];
        const max = maxima?.[k];
        if (v !== undefined && max !== undefined && v > max) {
          repos.problems.push(
            at(
              ['policy', k],
              `policy.${k} ${v} relaxes policy.yaml maxima.${k} ${max}; a repo's policy may only tighten`,
            ),
          );
        }
      }
      if (known.harnesses) {
        rp?.allowed_harnesses?.forEach((h, j) => {
          if (!known.harnesses!.includes(h))
            repos.problems.push(
              at(
                ['policy', 'allowed_harnesses', j],
                `harness \`${h}\` is not in harnesses.yaml${hint(h, known.harnesses!)}`,
              ),
            );
        });
        const esc = rp?.escalation_harness;
        if (esc !== undefined && esc !== 'item' && !known.harnesses.includes(esc))
          repos.problems.push(
            at(
              ['policy', 'escalation_harness'],
              `escalation_harness \`${esc}\` is not a harness in harnesses.yaml (or \`item\`)${hint(esc, known.harnesses)}`,
            ),
          );
      }
      // Sandbox is set once: the repo's `policy.sandbox` may repeat its `sandbox`, not change it.
      if (r.sandbox && rp?.sandbox && !sameSandbox(r.sandbox, rp.sandbox)) {
        repos.problems.push(
          at(
            ['policy', 'sandbox'],
            "sandbox is set once, by the repo's `sandbox`; its `policy.sandbox` cannot change it",
            'key',
          ),
        );
      }
    });
  }

  // intake.yaml
  if (intake.model && intake.tree) {
    const tree = intake.tree;
    const repoPaths = repos.model?.repos.map((r) => r.path) ?? null;
    intake.model.schedules.forEach((s, i) => {
      if (!chainExists(s.chain)) {
        intake.problems.push({
          path: `schedules.${i}`,
          field: 'chain',
          message: `schedule ${i}: chain \`${s.chain}\` is not in the library${hint(s.chain, chainIds)}`,
          ...locate(tree, ['schedules', i, 'chain'], 'value'),
        });
      }
      if (repoPaths && !repoPaths.includes(s.repo)) {
        intake.problems.push({
          path: `schedules.${i}`,
          field: 'repo',
          message: `schedule ${i}: repo \`${s.repo}\` is not connected (not in repos.yaml)`,
          ...locate(tree, ['schedules', i, 'repo'], 'value'),
        });
      }
    });
    intake.model.repos.forEach((p, i) => {
      if (repoPaths && !repoPaths.includes(p)) {
        intake.problems.push({
          path: 'repos',
          field: String(i),
          message: `repo \`${p}\` is not connected (not in repos.yaml)`,
          ...locate(tree, ['repos', i], 'value'),
        });
      }
    });
  }

  // policy.yaml
  if (policy.model && policy.tree) {
    const tree = policy.tree;
    const loops = fixLoopKeys(Object.values(chains).flatMap((c) => (c.checked ? [c.checked] : [])));
    const allLoaded = Object.values(chains).every((c) => c.checked);
    if (allLoaded) {
      for (const key of Object.keys(policy.model.loops)) {
        if (!loops.has(key)) {
          policy.problems.push({
            path: 'loops',
            field: key,
            message: `\`${key}\` names no fix loop of any chain${hint(key, [...loops])}`,
            ...locate(tree, ['loops', key], 'key'),
          });
        }
      }
    }
    if (known.harnesses) {
      for (const block of ['defaults', 'maxima'] as const) {
        policy.model[block]?.allowed_harnesses?.forEach((h, i) => {
          if (!known.harnesses!.includes(h)) {
            policy.problems.push({
              path: `${block}.allowed_harnesses`,
              field: String(i),
              message: `harness \`${h}\` is not in harnesses.yaml${hint(h, known.harnesses!)}`,
              ...locate(tree, [block, 'allowed_harnesses', i], 'value'),
            });
          }
        });
      }
      const esc = policy.model.defaults?.escalation_harness;
      if (esc && esc !== 'item' && !known.harnesses.includes(esc)) {
        policy.problems.push({
          path: 'defaults',
          field: 'escalation_harness',
          message: `harness \`${esc}\` is not in harnesses.yaml (or \`item\`)${hint(esc, known.harnesses)}`,
          ...locate(tree, ['defaults', 'escalation_harness'], 'value'),
        });
      }
    }
    policy.model.triggers?.forEach((t, i) => {
      policy.warnings.push({
        path: `triggers.${i}`,
        field: null,
        message: '`triggers:` moved to intake.yaml `schedules:`; this entry still fires',
        ...locate(tree, ['triggers', i], 'value'),
      });
      const name = t.chain ?? t.chain_template;
      if (name && !chainExists(name)) {
        policy.problems.push({
          path: `triggers.${i}`,
          field: 'chain',
          message: `chain \`${name}\` is not in the library`,
          ...locate(tree, ['triggers', i, t.chain ? 'chain' : 'chain_template'], 'value'),
        });
      }
    });
  }

  // harnesses.yaml: fallback entries name real harnesses and profiles.
  if (harnesses.tree && harnesses.model)
    harnesses.problems.push(
      ...checkReferences(
        harnesses.tree,
        harnesses.file,
        { ...known, steering: [], steeringExists: () => true },
        false,
        'profiles',
      ),
    );

  const files: Record<string, FileReport> = {};
  const put = (file: string, f: { model: unknown; problems: Problem[]; warnings: Problem[] }) => {
    f.problems.splice(0, f.problems.length, ...dedupe(f.problems));
    files[file] = { model: f.model, problems: f.problems, warnings: f.warnings };
  };
  put(library.file, library);
  for (const c of Object.values(chains)) put(c.file, { ...c, model: c.model });
  for (const f of [harnesses, policy, repos, intake, access, theme]) put(f.file, f);
  const all = Object.values(files);
  return {
    library,
    chains,
    harnesses,
    policy,
    repos,
    intake,
    access,
    theme,
    files,
    problems: dedupe(all.flatMap((f) => f.problems)),
    warnings: all.flatMap((f) => f.warnings),
  };
}

function hint(word: string, known: readonly string[]): string {
  const s = suggest(word, known);
  return s ? `; did you mean \`${s}\`?` : '';
}
