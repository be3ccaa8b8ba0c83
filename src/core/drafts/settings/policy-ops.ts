import { LOOP_DEFAULTS } from '../../../contract/config/policy.js';
import { POLICY_LEVELS } from '../../../contract/config/policy.js';
import { CAP_KEYS } from '../../../contract/config/scope-policy.js';
import { POLICY_OP_SCHEMAS, type PolicyOp } from '../../../contract/drafts/policy-ops.js';
import { isObj, OpRefused, type Obj } from '../ops/context.js';
import type { SettingsDocs, SettingsOpSet } from './docs.js';
import { parseSettingsOp } from './parse-op.js';

/*
 * The policy draft's ops (spec drafts.md, "Policy ops") on `policy.yaml` as plain data. Values are
 * not checked here: a value the file's schema refuses is a problem of the draft, shown until fixed.
 */

export const POLICY_FILE = 'policy.yaml';

/** The groups of the Policy screen, each with the dotted keys `set_value` may write. */
export const POLICY_SCOPES = {
  limits: [
    'budget.work_item_usd',
    'budget.daily_usd',
    'defaults.max_attempts',
    'maxima.max_attempts',
    'defaults.timeout_minutes',
    'maxima.timeout_minutes',
    ...(['defaults', 'maxima'] as const).flatMap((block) =>
      POLICY_LEVELS.flatMap((level) => CAP_KEYS.map((cap) => `${block}.${level}.${cap}`)),
    ),
  ],
  escalation: [
    'auto_escalate_stuck',
    'auto_escalate_stuck_cap',
    'auto_escalate_delay_s',
    'auto_review_attempts',
  ],
  retries: ['rate_limit_retries', 'forge_cli_timeout_s', 'forge_poll_s'],
  loops: ['default.attempts', 'default.wall_clock_s'],
  housekeeping: ['max_concurrent', 'archive.after_days', 'record_runs'],
  findings: ['findings.loop_severities'],
  /** The instance default sandbox (docs/sandbox.md), set as one block: its checks are the file's. */
  sandbox: ['sandbox'],
} as const satisfies Record<string, readonly string[]>;
export type PolicyScope = keyof typeof POLICY_SCOPES;

const isScope = (s: string): s is PolicyScope => Object.hasOwn(POLICY_SCOPES, s);

/** The file's mapping, or null when the file is missing (or empty). */
function existingDoc(docs: SettingsDocs): Obj | null {
  const doc = docs.doc(POLICY_FILE);
  if (isObj(doc)) return doc;
  if (doc === null || doc === undefined) return null;
  throw new OpRefused(`${POLICY_FILE} is not a mapping`);
}

/** The file's mapping to write in; a missing file starts as an empty one. */
function writableDoc(docs: SettingsDocs): Obj {
  const doc = existingDoc(docs);
  if (doc) return doc;
  const fresh: Obj = {};
  docs.setDoc(POLICY_FILE, fresh);
  return fresh;
}

function setValue(docs: SettingsDocs, op: Extract<PolicyOp, { op: 'set_value' }>): undefined {
  if (!isScope(op.scope)) {
    const why = op.scope === 'harnesses' ? ' (harness fields are set on the harnesses draft)' : '';
    throw new OpRefused(
      `scope \`${op.scope}\` is not a policy scope${why}: ${Object.keys(POLICY_SCOPES).join(', ')}`,
    );
  }
  const keys: readonly string[] = POLICY_SCOPES[op.scope];
  if (!keys.includes(op.key)) {
    throw new OpRefused(`key \`${op.key}\` is not a key of scope \`${op.scope}\``);
  }
  const segs = op.key.split('.');
  if (op.value === null || op.value === undefined) {
    const doc = existingDoc(docs);
    if (doc) removeKey(doc, segs);
    return undefined;
  }
  const last = segs.splice(-1)[0] ?? op.key;
  let at = writableDoc(docs);
  segs.forEach((seg, i) => {
    const next = at[seg];
    if (isObj(next)) {
      at = next;
      return;
    }
    if (next !== null && next !== undefined) {
      throw new OpRefused(
        `\`${segs.slice(0, i + 1).join('.')}\` in ${POLICY_FILE} is not a mapping, so \`${op.key}\` cannot be set under it`,
      );
    }
    // An absent section, or one written empty (`budget:`), is made a mapping.
    const fresh: Obj = {};
    at[seg] = fresh;
    at = fresh;
  });
  at[last] = op.value;
  return undefined;
}

/** Removes the dotted key, then each section that removal left empty. */
function removeKey(at: Obj, segs: readonly string[]): void {
  const [head, ...rest] = segs;
  if (head === undefined) return;
  if (rest.length === 0) {
    delete at[head];
    return;
  }
  const next = at[head];
  if (!isObj(next)) return;
  removeKey(next, rest);
  if (Object.keys(next).length === 0) delete at[head];
}

/** The `loops:` mapping, made when absent; refused when the file holds something else there. */
function loopsOf(doc: Obj): Obj {
  const loops = doc.loops;
  if (loops === null || loops === undefined) {
    const fresh: Obj = {};
    doc.loops = fresh;
    return fresh;
  }
  if (!isObj(loops)) throw new OpRefused(`\`loops\` in ${POLICY_FILE} is not a mapping`);
  return loops;
}

function setLoop(docs: SettingsDocs, op: Extract<PolicyOp, { op: 'set_loop' }>): undefined {
  const doc = writableDoc(docs);
  const loops = loopsOf(doc);
  const entry = Object.hasOwn(loops, op.key) ? loops[op.key] : undefined;
  const own = isObj(entry) ? entry : {};
  const block = isObj(doc.default) ? doc.default : {};
  const start = (k: 'attempts' | 'wall_clock_s'): unknown => own[k] ?? block[k] ?? LOOP_DEFAULTS[k];
  // A key naming no loop is kept: the draft shows it as a problem until the loop exists. Defined,
  // not assigned, so a key such as `__proto__` is a key like any other (and a problem of the file).
  Object.defineProperty(loops, op.key, {
    value: {
      attempts: op.max_attempts ?? start('attempts'),
      wall_clock_s: op.wall_clock_s ?? start('wall_clock_s'),
    },
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return undefined;
}

function removeLoop(docs: SettingsDocs, op: Extract<PolicyOp, { op: 'remove_loop' }>): undefined {
  const loops = existingDoc(docs)?.loops;
  if (!isObj(loops) || !Object.hasOwn(loops, op.key)) {
    throw new OpRefused(`\`${op.key}\` is not in \`loops\` of ${POLICY_FILE}`);
  }
  delete loops[op.key];
  return undefined;
}

export const POLICY_OPS: SettingsOpSet<PolicyOp> = {
  parse: (raw) => parseSettingsOp<PolicyOp>(POLICY_OP_SCHEMAS, 'policy', raw),
  run: (docs, op) => {
    switch (op.op) {
      case 'set_value':
        return setValue(docs, op);
      case 'set_loop':
        return setLoop(docs, op);
      case 'remove_loop':
        return removeLoop(docs, op);
    }
  },
};
