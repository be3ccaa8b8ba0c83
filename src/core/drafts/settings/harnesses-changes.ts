import type { DraftChangeRow } from '../../../contract/drafts/answers.js';
import { own } from '../../json/own.js';
import { sameData } from '../../json/same.js';
import { isObj, type Obj } from '../ops/context.js';
import type { SettingsInput } from './docs.js';
import { HARNESSES_FILE, POLICY_FILE, accessLists, accessState } from './harness-docs.js';

/*
 * The harnesses draft's `changes` (spec drafts.md, "changes" details, "On `harnesses`"): one row
 * per changed file, then each harness whose access state moved (`access.<id>`, `available ->
 * never`), then each harness entry and each profile that differs, every row naming its file.
 */

const mapAt = (doc: unknown, key: string): Obj => {
  const v = isObj(doc) ? own(doc, key) : undefined;
  return isObj(v) ? v : {};
};

/** Top-level keys whose values differ, in the order the draft has them, then the dropped ones. */
function differing(before: Obj, after: Obj): string[] {
  const keys = [...Object.keys(after), ...Object.keys(before).filter((k) => !Object.hasOwn(after, k))];
  return keys.filter((k) => !sameData(own(before, k), own(after, k)));
}

function fileRow(file: string, before: unknown, after: unknown, parses: boolean): DraftChangeRow | null {
  // Missing on disk and in the draft alike (or an empty file both ways): nothing changed.
  if (parses && sameData(before, after)) return null;
  if (before === null && after !== null) return { path: file, kind: 'add', summary: `${file} created`, file };
  const fields = differing(isObj(before) ? before : {}, isObj(after) ? after : {});
  if (after === null) return { path: file, kind: 'remove', summary: `${file} deleted`, fields, file };
  if (!parses) return { path: file, kind: 'change', summary: `${file} does not parse`, fields, file };
  return { path: file, kind: 'change', summary: `changed: ${fields.join(', ')}`, fields, file };
}

/** Rows for the entries of one mapping (`harnesses` or `profiles`); a profile moved unchanged is a rename. */
function entryRows(section: 'harnesses' | 'profiles', before: Obj, after: Obj): DraftChangeRow[] {
  const file = HARNESSES_FILE;
  const rows: DraftChangeRow[] = [];
  const added = Object.keys(after).filter((k) => !Object.hasOwn(before, k));
  const removed = Object.keys(before).filter((k) => !Object.hasOwn(after, k));
  const renamedTo = new Map<string, string>();
  if (section === 'profiles') {
    for (const r of removed) {
      const to = added.find((a) => ![...renamedTo.values()].includes(a) && sameData(before[r], after[a]));
      if (to !== undefined) renamedTo.set(r, to);
    }
  }
  const renamedFrom = new Map([...renamedTo].map(([from, to]) => [to, from]));
  for (const k of Object.keys(after)) {
    const path = `${section}.${k}`;
    const from = renamedFrom.get(k);
    if (from !== undefined) {
      rows.push({ path, kind: 'rename', summary: `renamed from ${from}`, from, to: k, file });
    } else if (!Object.hasOwn(before, k)) {
      rows.push({ path, kind: 'add', summary: 'added', file });
    } else if (!sameData(before[k], after[k])) {
      const fields = differing(isObj(before[k]) ? before[k] : {}, isObj(after[k]) ? after[k] : {});
      rows.push({ path, kind: 'change', summary: `changed: ${fields.join(', ')}`, fields, file });
    }
  }
  for (const k of removed) {
    if (!renamedTo.has(k)) rows.push({ path: `${section}.${k}`, kind: 'remove', summary: 'removed', file });
  }
  return rows;
}

/** The harness ids of the draft's harnesses.yaml (else the published one), in file order. */
export function harnessIds(input: SettingsInput): string[] {
  const after = HARNESSES_FILE in input.after ? input.after[HARNESSES_FILE] : undefined;
  const doc = after ?? input.set.harnesses.model;
  const before = HARNESSES_FILE in input.before ? input.before[HARNESSES_FILE] : undefined;
  return [...new Set([...Object.keys(mapAt(doc, 'harnesses')), ...Object.keys(mapAt(before, 'harnesses'))])];
}

export function harnessesChanges(input: SettingsInput): DraftChangeRow[] {
  const rows: DraftChangeRow[] = [];
  const parses: Record<string, boolean> = {
    [HARNESSES_FILE]: input.set.harnesses.tree !== null,
    [POLICY_FILE]: input.set.policy.tree !== null,
  };
  for (const f of [HARNESSES_FILE, POLICY_FILE]) {
    if (!(f in input.after)) continue;
    const row = fileRow(f, input.before[f] ?? null, input.after[f] ?? null, parses[f] ?? true);
    if (row) rows.push(row);
  }
  if (POLICY_FILE in input.after) {
    const was = accessLists(input.before[POLICY_FILE] ?? null);
    const now = accessLists(input.after[POLICY_FILE] ?? null);
    for (const id of harnessIds(input)) {
      const a = accessState(id, was);
      const b = accessState(id, now);
      if (a !== b)
        rows.push({ path: `access.${id}`, kind: 'change', summary: `${a} -> ${b}`, file: POLICY_FILE });
    }
  }
  if (HARNESSES_FILE in input.after) {
    const before = input.before[HARNESSES_FILE] ?? null;
    const after = input.after[HARNESSES_FILE] ?? null;
    rows.push(...entryRows('harnesses', mapAt(before, 'harnesses'), mapAt(after, 'harnesses')));
    rows.push(...entryRows('profiles', mapAt(before, 'profiles'), mapAt(after, 'profiles')));
  }
  return rows;
}
