import { IDENTIFIER_MAX, IDENTIFIER_PATTERN } from '../../../contract/config/ids.js';
import type { AccessState } from '../../../contract/drafts/harness-ops.js';
import { isObj, OpRefused, type Obj } from '../ops/context.js';
import type { SettingsDocs } from './docs.js';

/*
 * The working copies the harnesses ops change (`harnesses.yaml`, `policy.yaml`), and the access
 * state of a harness as the two `allowed_harnesses` lists express it. Shared by the ops and the
 * result, which read the same plain documents.
 */

export const HARNESSES_FILE = 'harnesses.yaml';
export const POLICY_FILE = 'policy.yaml';

/**
 * The harness a task that names none launches on, and the one escalation runs on when policy sets
 * no `escalation_harness`: both fall back to `claude` (core/harness/resolve-launch.ts and
 * runtime/engine/escalation.ts).
 */

/** A config file's working copy as a mapping; a missing file starts as an empty one. */
export function fileMap(docs: SettingsDocs, file: string): Obj {
  const doc = docs.doc(file);
  if (isObj(doc)) return doc;
  if (doc !== null && doc !== undefined) throw new OpRefused(`${file} is not a mapping`);
  const fresh: Obj = {};
  docs.setDoc(file, fresh);
  return fresh;
}

/** The mapping under `key` (created when absent or null); refused when the file holds something else. */
export function section(parent: Obj, key: string, where: string): Obj {
  const v = parent[key];
  if (isObj(v)) return v;
  if (v !== undefined && v !== null) throw new OpRefused(`${where} \`${key}\` is not a mapping`);
  const fresh: Obj = {};
  parent[key] = fresh;
  return fresh;
}

/** Removes `key` when it holds an empty mapping (a block the op emptied). */
export function pruneEmpty(parent: Obj, key: string): void {
  const v = parent[key];
  if (isObj(v) && Object.keys(v).length === 0) delete parent[key];
}

/** The `harnesses:` mapping of harnesses.yaml's working copy (empty when there is none). */
export function harnessesOf(docs: SettingsDocs): Obj {
  const h = fileMap(docs, HARNESSES_FILE).harnesses;
  return isObj(h) ? h : {};
}

/** The `profiles:` mapping of harnesses.yaml's working copy, created when absent. */
export function profilesOf(docs: SettingsDocs): Obj {
  return section(fileMap(docs, HARNESSES_FILE), 'profiles', HARNESSES_FILE);
}

/** The profile `name`, refused when harnesses.yaml has none of that name. */
export function profileOf(docs: SettingsDocs, name: string): Obj {
  const profiles = fileMap(docs, HARNESSES_FILE).profiles;
  const p = isObj(profiles) && Object.hasOwn(profiles, name) ? profiles[name] : undefined;
  if (p === undefined) throw new OpRefused(`profile \`${name}\` is not in harnesses.yaml`);
  if (!isObj(p)) throw new OpRefused(`profile \`${name}\` is not a mapping in harnesses.yaml`);
  return p;
}

/** Refuses a new profile name that is not an identifier or that `taken` already holds. */
export function checkProfileName(name: string, taken: readonly string[], field: string): string {
  if (name.length > IDENTIFIER_MAX || !IDENTIFIER_PATTERN.test(name)) {
    throw new OpRefused(
      `${field} ${JSON.stringify(name)} is not an identifier: a lowercase letter, then lowercase letters, digits, \`_\` or \`-\``,
    );
  }
  if (taken.includes(name)) throw new OpRefused(`profile \`${name}\` is already in harnesses.yaml`);
  return name;
}

export const BOUNDS = ['defaults', 'maxima'] as const;
export type Bound = (typeof BOUNDS)[number];

/** The two `allowed_harnesses` lists of a policy document; null: absent (no bound). */
export type AccessLists = Record<Bound, string[] | null>;

/** Reads the lists from any parsed policy document (a list that is not one reads as absent). */
export function accessLists(policy: unknown): AccessLists {
  const read = (b: Bound): string[] | null => {
    const block = isObj(policy) ? policy[b] : undefined;
    const list = isObj(block) ? block.allowed_harnesses : undefined;
    return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : null;
  };
  return { defaults: read('defaults'), maxima: read('maxima') };
}

/**
 * A harness's state under the two lists: `never` when the maxima leave it out, else `available`
 * when the defaults have it (or there are none), else `override`. The runner reads launches with
 * this too (runtime/workers/agent-candidates.ts `harnessState`).
 */
export function accessState(harness: string, lists: AccessLists): AccessState {
  if (lists.maxima !== null && !lists.maxima.includes(harness)) return 'never';
  return lists.defaults === null || lists.defaults.includes(harness) ? 'available' : 'override';
}
