import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfigDir } from '../config/config-dir.js';
import type { DraftRecord } from '../../store/drafts.js';
import { configResultCore } from './config-result.js';

// The config Jig seeds a new home with: a library and three chains that all resolve.
const published = readConfigDir(join(import.meta.dirname, '../../../defaults/config'), null).texts;
const FILE = 'chains/quick-task.yaml';
const draftOf = (
  files: Record<string, string | null>,
  lastParsed: Record<string, unknown> = {},
): DraftRecord => ({
  area: 'chains',
  key: 'quick-task',
  files,
  base: {},
  last_parsed: lastParsed,
  changes: 0,
  problems: 0,
  updated_at: '2026-11-24T09:00:00.000Z',
});

describe('a chain draft’s result, from the whole config set', () => {
  it('with no draft: the published chain, resolved, with sources, no problem and no yaml error', () => {
    const r = configResultCore('chains', 'quick-task', [FILE], published, null);
    expect(r.problems).toEqual([]);
    expect(r.yaml_error).toBeNull();
    expect(r.resolved?.nodes.map((n) => n.id)).toEqual(['implementation', 'verify']);
    expect(Object.keys(r.model)).toEqual([FILE]);
    expect(r.model[FILE]).toMatchObject({ nodes: [{ id: 'implementation' }, { id: 'verify' }] });
    expect(r.sources?.['implementation']).toBeDefined();
    expect(r.policy_values).toEqual({ auto_escalate_delay_s: 0, auto_review_attempts: 1 });
  });

  it('a draft text with a problem: the chain’s problems as a reload would find them, at their lines', () => {
    const text = 'nodes:\n  - id: implementation\n    extends: no_such_node\n';
    const r = configResultCore('chains', 'quick-task', [FILE], published, draftOf({ [FILE]: text }));
    expect(r.resolved).toBeNull();
    expect(r.problems).toEqual([
      {
        path: 'implementation',
        field: 'extends',
        message: 'extends `no_such_node`: no library node has that name',
        file: FILE,
        line: 3,
        col: 14,
      },
    ]);
    expect(r.model[FILE]).toEqual({ nodes: [{ id: 'implementation', extends: 'no_such_node' }] });
  });

  it('a draft text that does not parse: the yaml error, and the model it last parsed to', () => {
    const last = { nodes: [{ id: 'only' }] };
    const r = configResultCore(
      'chains',
      'quick-task',
      [FILE],
      published,
      draftOf({ [FILE]: 'nodes: [\n' }, { [FILE]: last }),
    );
    expect(r.yaml_error).toMatchObject({ file: FILE, line: 2, col: 1 });
    expect(r.model[FILE]).toEqual(last);
    // With no earlier state that parsed, the published file stands in.
    const bare = configResultCore(
      'chains',
      'quick-task',
      [FILE],
      published,
      draftOf({ [FILE]: 'nodes: [\n' }),
    );
    expect(bare.model[FILE]).toMatchObject({ nodes: [{ id: 'implementation' }, { id: 'verify' }] });
  });
});
