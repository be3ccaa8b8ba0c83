import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventCatalogue, eventKinds, payloadProblem, type EventKind } from '../src/contract/event-kinds.js';
import type { EventLog, UnitOfWork } from '../src/runtime/events/event-log.js';
import { repoRoot } from './helpers/server.js';

/** The keys a payload schema declares (of every shape, for a union). */
function payloadKeys(schema: unknown): string[] {
  if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
  if (schema instanceof z.ZodUnion) return [...new Set(schema.options.flatMap((o) => payloadKeys(o)))];
  throw new Error('a payload is an object or a union of objects');
}

describe('event catalogue and docs/events.md', () => {
  const doc = readFileSync(join(repoRoot, 'docs', 'events.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Kinds recorded today'));
  // A row names one or more kinds in its first cell; its third cell names the payload's keys.
  const rows = [...section.matchAll(/^\| ((?:`[a-z_]+`(?:, )?)+) \| [^|\n]* \|([^|\n]*)\|$/gm)].map((m) => ({
    kinds: [...m[1]!.matchAll(/`([a-z_]+)`/g)].map((k) => k[1]!),
    words: new Set([...m[2]!.matchAll(/`([^`]+)`/g)].map((w) => w[1]!)),
  }));
  const documented = rows.flatMap((r) => r.kinds);

  it('finds the table', () => {
    expect(rows.length).toBeGreaterThan(40);
  });

  it('documents every kind with every key of its payload', () => {
    for (const kind of eventKinds) {
      const row = rows.find((r) => r.kinds.includes(kind));
      expect(row, `docs/events.md lacks ${kind}`).toBeDefined();
      const missing = payloadKeys(eventCatalogue[kind].payload).filter((k) => !row!.words.has(k));
      expect(missing, `docs/events.md: ${kind} lacks payload keys`).toEqual([]);
    }
  });

  it('documents no kind the catalogue lacks, and each once', () => {
    expect(documented.filter((k) => !(eventKinds as string[]).includes(k))).toEqual([]);
    expect(new Set(documented).size).toBe(documented.length);
  });

  it('says what every kind means', () => {
    for (const kind of eventKinds) expect(eventCatalogue[kind].meaning.length, kind).toBeGreaterThan(10);
  });
});

describe('payload checks', () => {
  it('accepts a payload of its kind, optional keys left out', () => {
    expect(payloadProblem('plan_progress', { task: 'build.s.t' })).toBeNull();
    expect(payloadProblem('work_item_cancelled', { from: 'paused' })).toBeNull();
    expect(payloadProblem('work_item_cancelled', { from: 'paused', reason: 'not needed' })).toBeNull();
    expect(payloadProblem('gate_rejected', { gate: 'g', note: 'n', exhausted: true })).toBeNull();
    expect(
      payloadProblem('gate_rejected', { gate: 'g', note: 'n', reject_to: 'build', count: 1 }),
    ).toBeNull();
  });

  it('refuses an unknown kind, a missing key, an undeclared key and a wrong type', () => {
    expect(payloadProblem('no_such_kind', {})).toMatch(/not a kind of event/);
    expect(payloadProblem('plan_progress', {})).toMatch(/task/);
    expect(payloadProblem('plan_progress', { task: 't', extra: 1 })).toMatch(/extra/);
    expect(payloadProblem('budget_raised', { from: null, to: '5', spent_usd: 1, retried: false })).toMatch(
      /to/,
    );
  });
});

// Never called: checked by the compiler (`npx tsc`), each line below must fail to compile.
export function wrongEventsDoNotCompile(uow: UnitOfWork, log: EventLog): void {
  // @ts-expect-error: not a kind in the catalogue
  void uow.emit({ work_item_id: 'a', type: 'no_such_kind', by: 'jig', payload: {} });
  // @ts-expect-error: a key plan_progress does not carry
  void uow.emit({ work_item_id: 'a', type: 'plan_progress', by: 'jig', payload: { task: 't', x: 1 } });
  // @ts-expect-error: a payload key missing
  void uow.emit({ work_item_id: 'a', type: 'budget_changed', by: 'jig', payload: { from: 1 } });
  const kind: EventKind = Math.random() > 0.5 ? 'gate_requested' : 'work_item_needs_human';
  // @ts-expect-error: a computed kind needs the payload of each kind it can be
  void uow.emit({ work_item_id: 'a', type: kind, by: 'jig', payload: { gate: 'g', message: 'm' } });
  // @ts-expect-error: record is typed the same way
  void log.record('a', 'plan_progress', { step: 't' });
}
