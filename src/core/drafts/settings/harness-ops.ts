import {
  HARNESS_OP_SCHEMAS,
  type HarnessOp,
  type HarnessOpName,
  type HarnessOpOf,
} from '../../../contract/drafts/harness-ops.js';
import { isObj, OpRefused, type Obj } from '../ops/context.js';
import type { SettingsDocs, SettingsOpSet } from './docs.js';
import { setAccess, setAllowedTools, setEscalation } from './harness-access.js';
import { harnessesOf } from './harness-docs.js';
import { parseSettingsOp } from './parse-op.js';
import { addProfile, removeProfile, renameProfile, setProfile } from './harness-profile-ops.js';

/*
 * The `harnesses` draft's ops (spec drafts.md, "Harnesses ops"): parse checks each op's name and
 * fields, run applies it to the working copies of harnesses.yaml and policy.yaml.
 */

const HARNESS_KEYS = ['enabled', 'executable', 'defaults'] as const;

/**
 * Patches a harness entry: `enabled` (boolean), `executable` (a command name or path; null clears
 * it), `defaults` (merged per option; null or empty text removes one). Every key and value is
 * checked before anything changes. An option the provider does not take is a problem of the
 * result, not a refusal.
 */
export function setHarness(docs: SettingsDocs, op: HarnessOpOf<'set_harness'>): undefined {
  const harnesses = harnessesOf(docs);
  const entry = Object.hasOwn(harnesses, op.id) ? harnesses[op.id] : undefined;
  if (entry === undefined) throw new OpRefused(`harness \`${op.id}\` is not in harnesses.yaml`);
  if (!isObj(entry)) throw new OpRefused(`harness \`${op.id}\` is not a mapping in harnesses.yaml`);
  const patch = op.patch;
  const keys = Object.keys(patch);
  if (keys.length === 0) throw new OpRefused('patch is empty: give `enabled`, `executable` or `defaults`');
  for (const k of keys) {
    if (!(HARNESS_KEYS as readonly string[]).includes(k)) {
      throw new OpRefused(`patch.${k}: not a key a harness patch takes (${HARNESS_KEYS.join(', ')})`);
    }
  }
  if ('enabled' in patch && typeof patch.enabled !== 'boolean') {
    throw new OpRefused('patch.enabled: must be true or false');
  }
  if ('executable' in patch && patch.executable !== null) {
    if (typeof patch.executable !== 'string') {
      throw new OpRefused('patch.executable: must be a command name or path, or null to clear it');
    }
    if (patch.executable.trim() === '') {
      throw new OpRefused('patch.executable: is blank: give a command name or path, or null to clear it');
    }
  }
  let options: [string, string | null][] = [];
  if ('defaults' in patch) {
    const d = patch.defaults;
    if (!isObj(d))
      throw new OpRefused('patch.defaults: must be a mapping of option to text (null removes one)');
    options = Object.entries(d).map(([k, v]) => {
      if (k.trim() === '') throw new OpRefused('patch.defaults: an option name is blank');
      if (v !== null && typeof v !== 'string') {
        throw new OpRefused(`patch.defaults.${k}: must be text, or null to remove the option`);
      }
      return [k, v === null || v.trim() === '' ? null : v];
    });
  }

  if (typeof patch.enabled === 'boolean') entry.enabled = patch.enabled;
  if ('executable' in patch) {
    if (typeof patch.executable === 'string') entry.executable = patch.executable;
    else delete entry.executable;
  }
  if (options.length) {
    const defaults: Obj = isObj(entry.defaults) ? entry.defaults : {};
    for (const [k, v] of options) {
      if (v === null) delete defaults[k];
      else defaults[k] = v;
    }
    if (Object.keys(defaults).length) entry.defaults = defaults;
    else delete entry.defaults;
  }
  return undefined;
}

type OpOf<K extends HarnessOpName> = Extract<HarnessOp, { op: K }>;
type Handlers = { [K in HarnessOpName]: (docs: SettingsDocs, op: OpOf<K>) => unknown };

const HANDLERS: Handlers = {
  set_access: setAccess,
  set_allowed_tools: setAllowedTools,
  set_escalation: setEscalation,
  set_harness: setHarness,
  add_profile: addProfile,
  rename_profile: renameProfile,
  remove_profile: removeProfile,
  set_profile: setProfile,
};

/** Checks one raw op: its name, its keys and their JSON types (the message names the field). */
const parse = (raw: { op: string }): HarnessOp =>
  parseSettingsOp<HarnessOp>(HARNESS_OP_SCHEMAS, 'harnesses', raw);

function apply<K extends HarnessOpName>(docs: SettingsDocs, op: OpOf<K>): unknown {
  const handler: (docs: SettingsDocs, op: OpOf<K>) => unknown = HANDLERS[op.op];
  return handler(docs, op);
}

export const HARNESS_OPS: SettingsOpSet<HarnessOp> = { parse, run: (docs, op) => apply(docs, op) };
