/** The error table in docs/schedules.md is what users read; it must match what Jig says. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCron } from './parse.js';

const page = readFileSync(new URL('../../../docs/schedules.md', import.meta.url), 'utf8');
const errors = page.slice(page.indexOf('### Errors'), page.indexOf('### Schedules left in'));
const rows = [...errors.matchAll(/^\| `([^`]+)` \| `([^`]+)` \|$/gm)].map((m) => [m[1]!, m[2]!] as const);

describe('docs/schedules.md error table', () => {
  it('has examples', () => {
    expect(rows.length).toBeGreaterThanOrEqual(10);
  });

  it.each(rows)('%s → %s', (expression, message) => {
    const r = parseCron(expression);
    expect(r.ok ? 'accepted' : r.error.message).toBe(message);
  });
});
