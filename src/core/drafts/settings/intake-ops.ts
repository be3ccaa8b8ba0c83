import {
  INTAKE_DEFAULTS,
  INTAKE_KEYS,
  INTAKE_OP_SCHEMAS,
  SCHEDULE_KEYS,
  type IntakeOp,
} from '../../../contract/drafts/intake-ops.js';
import { isObj, OpRefused, type Obj } from '../ops/context.js';
import type { SettingsDocs, SettingsOpSet } from './docs.js';
import { parseSettingsOp } from './parse-op.js';

/*
 * The intake draft's ops (spec drafts.md, "Intake ops") on the working copy of intake.yaml.
 * Values are written as sent: an `interval_s` under 30, a cron that does not parse or a repo that
 * is not connected is a problem of the draft, so an editor can show it where it was typed.
 */

export const INTAKE_FILE = 'intake.yaml';

const isIntakeKey = (k: string): k is (typeof INTAKE_KEYS)[number] => (INTAKE_KEYS as string[]).includes(k);
const isScheduleKey = (k: string): boolean => (SCHEDULE_KEYS as readonly string[]).includes(k);

function intakeDoc(docs: SettingsDocs): Obj {
  const doc = docs.doc(INTAKE_FILE);
  if (doc === null || doc === undefined) {
    const fresh: Obj = {};
    docs.setDoc(INTAKE_FILE, fresh);
    return fresh;
  }
  if (!isObj(doc)) throw new OpRefused('intake.yaml is not a mapping; fix the file first');
  return doc;
}

/** The `schedules:` list, created when missing. */
function schedules(docs: SettingsDocs): unknown[] {
  const doc = intakeDoc(docs);
  doc.schedules ??= [];
  if (!Array.isArray(doc.schedules)) {
    throw new OpRefused('`schedules` in intake.yaml is not a list; fix the file first');
  }
  return doc.schedules;
}

function scheduleAt(docs: SettingsDocs, index: number): { list: unknown[]; entry: Obj } {
  const list = schedules(docs);
  const entry = list[index];
  if (!Number.isInteger(index) || index < 0 || !isObj(entry)) {
    throw new OpRefused(
      `index: no schedule at index ${index} (intake.yaml has ${list.length} schedule${list.length === 1 ? '' : 's'})`,
    );
  }
  return { list, entry };
}

/**
 * Sets keys of the top of the file. A file lacking any of the four keys gets its default, so the
 * published file says every value it runs with. null sets a key back to its default.
 */
function setIntake(docs: SettingsDocs, op: Extract<IntakeOp, { op: 'set_intake' }>): void {
  for (const k of Object.keys(op.patch)) {
    if (!isIntakeKey(k)) {
      const hint = k === 'max_concurrent' ? '; `max_concurrent` belongs to the policy draft' : '';
      throw new OpRefused(`patch.${k}: \`${k}\` is not one of ${INTAKE_KEYS.join(', ')}${hint}`);
    }
  }
  const doc = intakeDoc(docs);
  for (const k of INTAKE_KEYS) if (!(k in doc)) doc[k] = defaultOf(k);
  for (const [k, v] of Object.entries(op.patch)) doc[k] = v === null && isIntakeKey(k) ? defaultOf(k) : v;
}

// A fresh copy, so a later op changing the list does not change the shared default.
const defaultOf = (k: (typeof INTAKE_KEYS)[number]): unknown => (k === 'repos' ? [] : INTAKE_DEFAULTS[k]);

function addSchedule(docs: SettingsDocs, op: Extract<IntakeOp, { op: 'add_schedule' }>): void {
  schedules(docs).push({
    cron: op.cron,
    repo: op.repo,
    chain: op.chain,
    title: op.title,
    description: op.description ?? '',
  });
}

/** Changes keys of one schedule; null clears a key (a required one missing is then a problem). */
function setSchedule(docs: SettingsDocs, op: Extract<IntakeOp, { op: 'set_schedule' }>): void {
  const { entry } = scheduleAt(docs, op.index);
  for (const k of Object.keys(op.patch)) {
    if (!isScheduleKey(k)) {
      throw new OpRefused(`patch.${k}: \`${k}\` is not a schedule key (${SCHEDULE_KEYS.join(', ')})`);
    }
  }
  for (const [k, v] of Object.entries(op.patch)) {
    if (v === null) delete entry[k];
    else entry[k] = v;
  }
}

function removeSchedule(docs: SettingsDocs, op: Extract<IntakeOp, { op: 'remove_schedule' }>): void {
  const { list } = scheduleAt(docs, op.index);
  list.splice(op.index, 1);
}

export const INTAKE_OPS: SettingsOpSet<IntakeOp> = {
  parse: (raw) => parseSettingsOp<IntakeOp>(INTAKE_OP_SCHEMAS, 'intake', raw),
  run(docs, op) {
    switch (op.op) {
      case 'set_intake':
        return setIntake(docs, op);
      case 'add_schedule':
        return addSchedule(docs, op);
      case 'set_schedule':
        return setSchedule(docs, op);
      case 'remove_schedule':
        return removeSchedule(docs, op);
    }
  },
};
