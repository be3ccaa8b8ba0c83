import type { AccessFile } from '../../contract/config/access.js';
import type { HarnessesFile } from '../../contract/config/harnesses.js';
import type { IntakeFile } from '../../contract/config/intake.js';
import type { PolicyFile } from '../../contract/config/policy.js';
import type { ReposFile } from '../../contract/config/repos.js';
import type { ThemeFile } from '../../contract/config/theme.js';
import type { Problem } from '../../contract/problems.js';
import { own } from '../json/own.js';
import { addonPins } from '../addons/pins.js';
import { loadAddonSet, type AddonInput, type AddonSetLoad } from '../addons/load.js';
import type { AddonLookup } from '../chain/library-index.js';
import { loadChain, type ChainLoad } from '../chain/load-chain.js';
import { loadLibrary, type LibraryLoad } from '../chain/load-library.js';
import type { Across, Found } from './across.js';
import { checkChainAcross, checkLibraryAcross } from './across-chains.js';
import { checkHarnessesAcross } from './across-harnesses.js';
import { checkIntakeAcross } from './across-intake.js';
import { checkPolicyAcross } from './across-policy.js';
import { checkReposAcross } from './across-repos.js';
import type { FileLoad } from './load-file.js';
import { loadAccess, loadHarnesses, loadIntake, loadPolicy, loadRepos, loadTheme } from './load-settings.js';

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
  /** The installed add-ons (addons.yaml, addons.lock and the content store), and Jig's version. */
  addons?: { version: string; installed: AddonInput[] } | null;
  /**
   * Provider ids whose definition says `usage_reported: none` (read by the runtime from
   * defaults/harnesses/ and config/harnesses/); absent: none known.
   */
  unmetered?: string[] | null;
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
  /** The installed add-ons, loaded: their chains are `<namespace>:<id>` (docs/addons.md). */
  addons: AddonSetLoad;
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
 * then each file's checks across files (`across-*.ts`): harness, profile and steering names;
 * default chains; schedule chains and repos; loop keys; caps past the maxima; harnesses outside
 * policy. Each file's checks add to that file's problems only, so the order they run in is free.
 */
export function validateConfigSet(texts: ConfigTexts, opts: ConfigSetOptions = {}): ConfigSet {
  const harnesses = loadHarnesses(texts.harnesses ?? null);
  const addons = loadAddonSet(texts.addons?.installed ?? [], {
    version: texts.addons?.version ?? '2.0.0',
    harnesses: harnesses.model ? Object.keys(harnesses.model.harnesses) : null,
    profiles: harnesses.model ? Object.keys(harnesses.model.profiles) : null,
  });
  const library = loadLibrary(texts.library, opts.addons ?? addons.lookup);
  const chains: Record<string, ChainLoad> = {};
  for (const [id, text] of Object.entries(texts.chains).sort(byKey)) {
    const c = loadChain(id, text, { library: library.index, resolver: library.resolver });
    const pins = c.resolved ? addonPins(c.resolved, addons.digests) : null;
    if (c.resolved && pins) c.resolved = { ...c.resolved, addons: pins };
    chains[id] = c;
  }
  const policy = loadPolicy(texts.policy ?? null);
  const repos = loadRepos(texts.repos ?? null);
  const intake = loadIntake(texts.intake ?? null);
  const access = loadAccess(texts.access ?? null);
  const theme = loadTheme(texts.theme ?? null);

  const across: Across = {
    known: {
      harnesses: harnesses.model ? Object.keys(harnesses.model.harnesses) : null,
      profiles: harnesses.model
        ? [...Object.keys(harnesses.model.profiles), ...Object.keys(addons.profiles)]
        : null,
      steering: library.index.names.steering,
      steeringExists: (n) => library.index.lookup('steering', n) !== undefined,
      addonSkillExists: (n) => addons.skills.has(n),
      addonSkills: [...addons.skills],
    },
    chainIds: [...Object.keys(chains), ...Object.keys(addons.chains)],
    chainExists: (name) => {
      if (!name.includes(':')) return own(chains, name) !== undefined;
      if (opts.addonChainExists) return opts.addonChainExists(name);
      return own(addons.chains, name) !== undefined;
    },
    chains: Object.values(chains),
    harnesses: harnesses.model,
    policy: policy.model,
    repos: repos.model,
    unmetered: new Set(texts.unmetered ?? []),
  };
  add(library, checkLibraryAcross(library, across));
  for (const c of across.chains) add(c, checkChainAcross(c, across));
  harnesses.problems.push(...checkHarnessesAcross(harnesses, across));
  add(policy, checkPolicyAcross(policy, across));
  repos.problems.push(...checkReposAcross(repos, across));
  intake.problems.push(...checkIntakeAcross(intake, across));

  const files: Record<string, FileReport> = {};
  const put = (file: string, f: { model: unknown; problems: Problem[]; warnings: Problem[] }) => {
    f.problems.splice(0, f.problems.length, ...dedupe(f.problems));
    files[file] = { model: f.model, problems: f.problems, warnings: f.warnings };
  };
  put(library.file, library);
  for (const c of across.chains) put(c.file, { ...c, model: c.model });
  for (const f of [harnesses, policy, repos, intake, access, theme]) put(f.file, f);
  const all = Object.values(files);
  return {
    library,
    addons,
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

function add(load: Found, found: Found): void {
  load.problems.push(...found.problems);
  load.warnings.push(...found.warnings);
}

function byKey([a]: [string, string], [b]: [string, string]): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
