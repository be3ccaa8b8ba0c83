import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { fieldKeys, fieldsOf, POLICY_FIELDS, toggleSeverity } from './policy-fields.js';
import { aPolicy } from './policy-fixture.js';
import { CapsTable, PolicyFields } from './policy-parts.js';

const parts = () => ({ r: aPolicy(), at: () => [], set: () => async () => true, busy: false });

describe('the policy page as a table of fields', () => {
  it('names each key once, and reads a value for every field', () => {
    const keys = POLICY_FIELDS.map((f) => f.key);
    expect(new Set(keys).size).toBe(keys.length);
    const r = aPolicy();
    for (const f of POLICY_FIELDS) expect(f.read(r), f.key).toHaveProperty('source', 'policy');
    expect(fieldsOf('budget').map((f) => f.key)).toEqual([
      'budget.work_item_usd',
      'budget.daily_usd',
      'defaults.max_attempts',
      'maxima.max_attempts',
      'defaults.timeout_minutes',
      'maxima.timeout_minutes',
    ]);
  });

  it('places a problem at any field, the caps grid and the loops included', () => {
    const keys = fieldKeys({ ...aPolicy(), loops: { ...aPolicy().loops, entries: [] } });
    for (const k of [
      'defaults.tasks.budget_usd',
      'maxima.work_item.token_budget',
      'forge_poll_s',
      'archive.after_days',
    ])
      expect(keys).toContain(k);
  });

  it('keeps the severities in the file order whichever is ticked first', () => {
    expect(toggleSeverity(['minor'], 'critical', true)).toEqual(['critical', 'minor']);
    expect(toggleSeverity(['critical', 'minor'], 'critical', false)).toEqual(['minor']);
  });

  it('draws each field of a section with its label, its value and where the value comes from', () => {
    const html = renderToStaticMarkup(createElement(PolicyFields, { section: 'escalation', ...parts() }));
    for (const f of fieldsOf('escalation')) expect(html).toContain(f.label);
    expect(html).toContain('type="checkbox"');
    expect(html.match(/<input/g)).toHaveLength(fieldsOf('escalation').length);
  });

  it('draws the caps grid: a row per level, a default and a maximum per cap', () => {
    const html = renderToStaticMarkup(createElement(CapsTable, parts()));
    expect(html.match(/<tr>/g)).toHaveLength(5);
    expect(html.match(/<input/g)).toHaveLength(4 * 4 * 2);
    expect(html).toContain('Tasks Budget ($) maximum');
  });
});
