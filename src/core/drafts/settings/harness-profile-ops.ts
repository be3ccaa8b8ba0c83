import type { HarnessOpOf } from '../../../contract/drafts/harness-ops.js';
import { isObj, OpRefused, type Obj } from '../ops/context.js';
import type { SettingsDocs } from './docs.js';
import { checkProfileName, profileOf, profilesOf } from './harness-docs.js';
import { fallbackUsers, profileRefs } from './harness-tasks.js';

/*
 * The profile ops of the harnesses draft: add, rename, remove and patch an agent profile of
 * harnesses.yaml (spec drafts.md, "Harnesses ops").
 */

/** A new profile: a copy of `copy_from`, else one with no provider yet (`providers: {}`). */
export function addProfile(docs: SettingsDocs, op: HarnessOpOf<'add_profile'>): undefined {
  const profiles = profilesOf(docs);
  checkProfileName(op.name, Object.keys(profiles), 'name');
  profiles[op.name] =
    op.copy_from === undefined ? { providers: {} } : structuredClone(profileOf(docs, op.copy_from));
  return undefined;
}

/**
 * Renames a profile in place (its position kept) and retargets every `fallback:` entry of
 * harnesses.yaml naming it. Tasks and library components naming the old name are not in this
 * draft: they are answered as `broken` and left as problems. Renaming to the same name changes
 * nothing and answers no broken task.
 */
export function renameProfile(
  docs: SettingsDocs,
  op: HarnessOpOf<'rename_profile'>,
): { broken: { chain: string | null; path: string }[] } {
  profileOf(docs, op.name);
  if (op.to === op.name) return { broken: [] };
  const profiles = profilesOf(docs);
  checkProfileName(op.to, Object.keys(profiles), 'to');
  const entries = Object.entries(profiles);
  for (const k of Object.keys(profiles)) delete profiles[k];
  for (const [k, v] of entries) profiles[k === op.name ? op.to : k] = v;
  for (const v of Object.values(profiles)) {
    if (!isObj(v) || !Array.isArray(v.fallback)) continue;
    for (const e of v.fallback) if (isObj(e) && e.profile === op.name) e.profile = op.to;
  }
  const seen = new Set<string>();
  const broken = profileRefs(docs.set, op.name).flatMap((r) => {
    const key = `${r.chain ?? ''}\0${r.path}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [{ chain: r.chain, path: r.path }];
  });
  return { broken };
}

/** Removes a profile no task, library component or other profile's fallback still names. */
export function removeProfile(docs: SettingsDocs, op: HarnessOpOf<'remove_profile'>): undefined {
  profileOf(docs, op.name);
  const profiles = profilesOf(docs);
  const users = fallbackUsers(profiles, op.name);
  if (users.length) {
    throw new OpRefused(
      `profile \`${op.name}\` is still named by the fallback of profile ${users.map((u) => `\`${u}\``).join(', ')}`,
    );
  }
  const refs = profileRefs(docs.set, op.name);
  const first = refs[0];
  if (first) {
    const where =
      first.chain === null
        ? `library.yaml \`${first.path}\``
        : `chain \`${first.chain}\` task \`${first.path}\``;
    const more = refs.length > 1 ? ` and ${refs.length - 1} more` : '';
    throw new OpRefused(`profile \`${op.name}\` is still named by ${where}${more}`);
  }
  delete profiles[op.name];
  return undefined;
}

const PROFILE_KEYS = ['providers', 'model', 'effort', 'fallback'] as const;

/** A `providers` entry of a patch: null (remove it) or `{model, effort?}`. */
function providerEntry(provider: string, v: unknown): Obj | null {
  if (v === null) return null;
  const bad = () =>
    new OpRefused(
      `patch.providers.${provider}: must be \`{model, effort?}\` with text values, or null to remove it`,
    );
  if (!isObj(v)) throw bad();
  if (Object.keys(v).some((k) => k !== 'model' && k !== 'effort')) throw bad();
  if (typeof v.model !== 'string' || v.model.trim() === '') throw bad();
  if (v.effort !== undefined && v.effort !== null && typeof v.effort !== 'string') throw bad();
  const out: Obj = { model: v.model };
  if (typeof v.effort === 'string' && v.effort.trim() !== '') out.effort = v.effort;
  return out;
}

/** The older shape as `providers`: each model with the profile's one effort. */
function toProviders(profile: Obj): Obj {
  const out: Obj = {};
  const models = isObj(profile.model) ? profile.model : {};
  for (const [p, m] of Object.entries(models)) {
    if (typeof m !== 'string') continue;
    out[p] = typeof profile.effort === 'string' ? { model: m, effort: profile.effort } : { model: m };
  }
  return out;
}

/**
 * Patches a profile. `providers` merges per provider (null removes one) and turns a profile in the
 * older shape into this one; `model` (merged per provider, null removes one) and `effort` (null
 * removes it) apply only to a profile in the older shape; `fallback` replaces the list (null
 * removes it).
 */
export function setProfile(docs: SettingsDocs, op: HarnessOpOf<'set_profile'>): undefined {
  const profile = profileOf(docs, op.name);
  const patch = op.patch;
  const keys = Object.keys(patch);
  if (keys.length === 0)
    throw new OpRefused('patch is empty: give `providers`, `model`, `effort` or `fallback`');
  for (const k of keys) {
    if (!(PROFILE_KEYS as readonly string[]).includes(k)) {
      throw new OpRefused(`patch.${k}: not a profile key (${PROFILE_KEYS.join(', ')})`);
    }
  }
  const older = 'model' in patch || 'effort' in patch;
  if ('providers' in patch && older) {
    throw new OpRefused('patch mixes `providers` with the older `model`/`effort`: send one shape');
  }
  if (older && profile.providers !== undefined) {
    throw new OpRefused(
      `profile \`${op.name}\` is written with \`providers\`: patch \`providers\`, not \`model\` or \`effort\``,
    );
  }
  let providers: [string, Obj | null][] | null = null;
  if ('providers' in patch) {
    if (!isObj(patch.providers))
      throw new OpRefused('patch.providers: must be a mapping of provider to `{model, effort?}`');
    providers = Object.entries(patch.providers).map(([p, v]) => [p, providerEntry(p, v)]);
  }
  if ('model' in patch && !isObj(patch.model)) {
    throw new OpRefused('patch.model: must be a mapping of provider to model (null removes one)');
  }
  const models = isObj(patch.model) ? Object.entries(patch.model) : [];
  for (const [p, m] of models) {
    if (m !== null && (typeof m !== 'string' || m.trim() === '')) {
      throw new OpRefused(`patch.model.${p}: must be a model name, or null to remove it`);
    }
  }
  if (
    'effort' in patch &&
    patch.effort !== null &&
    (typeof patch.effort !== 'string' || patch.effort.trim() === '')
  ) {
    throw new OpRefused('patch.effort: must be an effort, or null to remove it');
  }
  if ('fallback' in patch && patch.fallback !== null && !Array.isArray(patch.fallback)) {
    throw new OpRefused('patch.fallback: must be a list of launches, or null to remove it');
  }

  if (providers) {
    const target = isObj(profile.providers) ? profile.providers : toProviders(profile);
    delete profile.model;
    delete profile.effort;
    for (const [p, v] of providers) {
      if (v === null) delete target[p];
      else target[p] = v;
    }
    profile.providers = target;
  }
  if ('model' in patch) {
    const target = isObj(profile.model) ? profile.model : {};
    for (const [p, m] of models) {
      if (m === null) delete target[p];
      else target[p] = m;
    }
    profile.model = target;
  }
  if ('effort' in patch) {
    if (patch.effort === null) delete profile.effort;
    else profile.effort = patch.effort;
  }
  if ('fallback' in patch) {
    if (patch.fallback === null) delete profile.fallback;
    else profile.fallback = structuredClone(patch.fallback);
  }
  return undefined;
}
