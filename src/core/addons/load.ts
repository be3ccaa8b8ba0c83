import { z } from 'zod';
import { AgentProfile } from '../../contract/config/harnesses.js';
import { Identifier } from '../../contract/config/ids.js';
import { LIBRARY_SECTIONS, type LibrarySection } from '../../contract/config/library.js';
import type { AddonManifest } from '../../contract/addons.js';
import type { Problem } from '../../contract/problems.js';
import type { AddonLookup, LibraryIndex } from '../chain/library-index.js';
import { loadChain, type ChainLoad } from '../chain/load-chain.js';
import { loadLibrary } from '../chain/load-library.js';
import { child, parseYamlTree, toPlain, withOrigin, type AMap, type ANode } from '../config/tree.js';
import { validateTree } from '../config/validate-tree.js';
import { checkManifest } from './check.js';
import { qualifyTree, type QualifyContext } from './qualify.js';
import type { AddonFiles, InstanceFacts } from './types.js';

/** An add-on's `profiles.yaml`: agent profiles its tasks select by bare name (`<namespace>:<name>` outside). */
export const AddonProfilesFile = z.strictObject({ profiles: z.record(Identifier, AgentProfile).default({}) });

/** One installed add-on, as the config set is given it. */
export interface AddonInput {
  namespace: string;
  digest: string;
  files: AddonFiles;
  /** A disabled add-on is checked but offers nothing. */
  enabled: boolean;
}

/** One add-on, loaded: what it offers, and every problem with its file (relative to `prefix`) and line. */
export interface AddonLoad {
  namespace: string;
  digest: string;
  enabled: boolean;
  manifest: AddonManifest | null;
  /** Bare names per library section. */
  names: Record<LibrarySection, string[]>;
  chains: Record<string, ChainLoad>;
  profiles: Record<string, AgentProfile>;
  skills: string[];
  /**
   * Its library.yaml and chains as written, names qualified (plain data): what "copy to my
   * library" copies, so the copy keeps naming the add-on's components (`release:base`).
   */
  sources: { library: Record<string, unknown> | null; chains: Record<string, unknown> };
  problems: Problem[];
  /** Instance checks not made (no home to check against). */
  skipped: string[];
}

/** Every installed add-on, loaded together: what the config model reads of them. */
export interface AddonSetLoad {
  addons: Record<string, AddonLoad>;
  /** `<namespace>:<name>` library components of the add-ons that load and are enabled. */
  lookup: AddonLookup;
  /** `<namespace>:<id>` → the chain, for the add-ons that load and are enabled. */
  chains: Record<string, ChainLoad>;
  /** `<namespace>:<name>` → profile. */
  profiles: Record<string, AgentProfile>;
  /** `<namespace>:<name>` of every skill. */
  skills: Set<string>;
  /** Namespace → digest, of the add-ons offered. */
  digests: Record<string, string>;
}

const emptyNames = (): Record<LibrarySection, string[]> => ({
  nodes: [],
  steps: [],
  tasks: [],
  steering: [],
});

/** Where an add-on's files are named in problems: `addons/<namespace>/` in an instance, `` for `validate`. */
export type FilePrefix = (namespace: string) => string;
export const instancePrefix: FilePrefix = (ns) => `addons/${ns}/`;

interface Prepared {
  input: AddonInput;
  load: AddonLoad;
  ctx: QualifyContext | null;
}

/**
 * Loads every installed add-on against the instance (ADR 0020): the manifest and its `requires`,
 * the library and chains with their names qualified and the self-contained, limits-only rules
 * checked, profiles and skills. An add-on with any problem offers nothing, so a chain that uses it
 * is refused naming what is missing, never run on half an add-on.
 */
export function loadAddonSet(
  inputs: readonly AddonInput[],
  instance: InstanceFacts | null,
  prefix: FilePrefix = instancePrefix,
): AddonSetLoad {
  const components = new Map<string, AMap>();
  const prepared = inputs.map((input) => prepare(input, instance, prefix, components));
  const qualified: LibraryIndex['lookup'] = (section, name) => components.get(`${section}.${name}`);

  // Library components and chains are resolved with every add-on's components in view: the
  // qualified names keep each add-on to its own.
  for (const { input, load, ctx } of prepared) {
    if (ctx === null) continue;
    const ns = load.namespace;
    if (load.problems.length > 0) {
      // What the library got wrong would echo through every chain that extends it: the chains'
      // own names are checked, and they load once the library does.
      for (const [id, text] of Object.entries(input.files.chains)) {
        const file = `${prefix(ns)}chains/${id}.yaml`;
        const parsed = parseYamlTree(text, file, 'chain');
        load.problems.push(...parsed.problems);
        if (parsed.tree) load.problems.push(...qualifyTree(parsed.tree, file, ctx).problems);
      }
      continue;
    }
    const own = (tree: ANode) => qualifyTree(tree, `${prefix(ns)}library.yaml`, ctx);
    const index: LibraryIndex = {
      names: load.names,
      lookup: (section, name) => qualified(section, name.includes(':') ? name : `${ns}:${name}`),
    };
    // The library's own qualify problems were counted when it was registered.
    const lib = loadLibrary(input.files.library, undefined, {
      file: `${prefix(ns)}library.yaml`,
      transform: (tree) => ({ tree: own(tree).tree, problems: [] }),
      index: () => index,
    });
    load.problems.push(...lib.problems);
    const chainCtx = { library: index, resolver: lib.resolver };
    for (const [id, text] of Object.entries(input.files.chains)) {
      const file = `${prefix(ns)}chains/${id}.yaml`;
      const c = loadChain(id, text, chainCtx, {
        file,
        transform: (tree) => {
          const q = qualifyTree(tree, file, ctx);
          load.sources.chains[id] = toPlain(q.tree);
          return { tree: q.tree as AMap, problems: q.problems };
        },
      });
      if (c.resolved) c.resolved = { ...c.resolved, addons: { [ns]: load.digest } };
      load.chains[id] = c;
      load.problems.push(...c.problems);
    }
  }

  const out: AddonSetLoad = {
    addons: {},
    lookup: () => undefined,
    chains: {},
    profiles: {},
    skills: new Set(),
    digests: {},
  };
  const offered = new Set<string>();
  for (const { load } of prepared) {
    out.addons[load.namespace] = load;
    if (!load.enabled || load.problems.length > 0) continue;
    offered.add(load.namespace);
    out.digests[load.namespace] = load.digest;
    for (const [id, c] of Object.entries(load.chains)) out.chains[`${load.namespace}:${id}`] = c;
    for (const [name, p] of Object.entries(load.profiles)) out.profiles[`${load.namespace}:${name}`] = p;
    for (const s of load.skills) out.skills.add(`${load.namespace}:${s}`);
  }
  out.lookup = (section, namespace, name) =>
    offered.has(namespace) ? components.get(`${section}.${namespace}:${name}`) : undefined;
  return out;
}

const problem = (file: string, line: number | null, message: string): Problem => ({
  path: '',
  field: null,
  message,
  file,
  line,
  col: null,
});

/** The manifest, profiles and skills of one add-on, and its library components registered, qualified. */
function prepare(
  input: AddonInput,
  instance: InstanceFacts | null,
  prefix: FilePrefix,
  components: Map<string, AMap>,
): Prepared {
  const ns = input.namespace;
  const load: AddonLoad = {
    namespace: ns,
    digest: input.digest,
    enabled: input.enabled,
    manifest: null,
    names: emptyNames(),
    chains: {},
    profiles: {},
    skills: Object.keys(input.files.skills).sort(),
    sources: { library: null, chains: {} },
    problems: [],
    skipped: [],
  };
  const m = checkManifest(input.files.manifest, instance);
  load.manifest = m.manifest;
  load.skipped.push(...m.skipped);
  load.problems.push(...m.problems.map((p) => problem(`${prefix(ns)}${p.file}`, p.line, p.message)));
  if (m.manifest === null) return { input, load, ctx: null };

  for (const [name, text] of Object.entries(input.files.skills))
    if (text.trim() === '')
      load.problems.push(problem(`${prefix(ns)}skills/${name}/SKILL.md`, 1, 'is empty'));

  const profilesFile = `${prefix(ns)}profiles.yaml`;
  const rawProfiles =
    input.files.profiles === null ? null : parseYamlTree(input.files.profiles, profilesFile, 'file');
  const ownProfiles = new Set<string>();
  const profileMap = child(rawProfiles?.tree ?? undefined, 'profiles');
  if (profileMap?.t === 'map') for (const e of profileMap.entries) ownProfiles.add(e.key);
  const ctx: QualifyContext = {
    namespace: ns,
    name: m.manifest.name,
    ownProfiles,
    ownSkills: new Set(load.skills),
    harnesses: m.manifest.requires.harnesses ?? [],
    profiles: m.manifest.requires.profiles ?? [],
  };

  if (rawProfiles) {
    load.problems.push(...rawProfiles.problems);
    if (rawProfiles.tree) {
      const q = qualifyTree(rawProfiles.tree, profilesFile, ctx);
      load.problems.push(...q.problems);
      const checked = validateTree(q.tree, AddonProfilesFile, { file: profilesFile });
      load.problems.push(...checked.problems);
      if (checked.data) load.profiles = checked.data.profiles;
    }
  }

  if (input.files.library !== null) {
    const file = `${prefix(ns)}library.yaml`;
    const parsed = parseYamlTree(input.files.library, file, 'library');
    load.problems.push(...parsed.problems);
    if (parsed.tree) {
      const q = qualifyTree(parsed.tree, file, ctx);
      load.problems.push(...q.problems);
      const plain = toPlain(q.tree);
      if (plain !== null && typeof plain === 'object' && !Array.isArray(plain))
        load.sources.library = plain as Record<string, unknown>;
      for (const section of LIBRARY_SECTIONS) {
        const sec = child(q.tree, section);
        if (sec?.t !== 'map') continue;
        for (const e of sec.entries) {
          if (e.value.t !== 'map') continue;
          load.names[section].push(e.key);
          const source = `library:${section}.${ns}:${e.key}`;
          components.set(`${section}.${ns}:${e.key}`, withOrigin(e.value, { file, source }) as AMap);
        }
      }
    }
  }
  return { input, load, ctx };
}
