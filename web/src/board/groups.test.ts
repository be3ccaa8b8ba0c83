import { describe, expect, it } from 'vitest';
import type { Item } from '../api.js';
import { anItem } from '../fixtures.js';
import { actionLabel, actionOf, age, arrange, groupItems, groupOf, reasonOf } from './groups.js';

const base: Item = anItem();

const item = (over: Partial<Item>): Item => ({ ...base, ...over });
const stopped = (kind: NonNullable<Item['stop']>['kind'], node = 'build') =>
  item({
    status: 'stopped',
    display_status: kind === 'rate_limit' ? 'rate_limited' : 'needs_you',
    current_node: node,
    started_at: base.created_at,
    stop: { kind, reason: 'why', suggested_action: null },
  });

describe('board groups', () => {
  it('puts each state in its group', () => {
    expect(groupOf(item({}))).toBe('not_started');
    expect(groupOf(item({ started_at: base.created_at }))).toBe('needs');
    expect(groupOf(stopped('gate'))).toBe('needs');
    expect(groupOf(stopped('rate_limit'))).toBe('running');
    const waiting = item({ status: 'waiting', display_status: 'waiting', started_at: base.created_at });
    expect([groupOf(waiting), reasonOf(waiting), actionOf(waiting)]).toEqual(['running', null, 'open']);
    expect(groupOf(item({ status: 'queued', display_status: 'queued' }))).toBe('running');
    expect(groupOf(item({ status: 'cancelled', display_status: 'cancelled' }))).toBe('done');
  });

  it('shows a blocked item under Not started with what it waits on, and one that never can under Needs you', () => {
    const dep = (title: string, status: Item['status']) => ({ id: `id-${title}`, title, status });
    const blocked = item({
      status: 'blocked',
      display_status: 'blocked',
      waiting_on: [dep('Add the table', 'running'), dep('Migrate', 'paused'), dep('Seed', 'queued')],
    });
    expect([groupOf(blocked), reasonOf(blocked), actionOf(blocked)]).toEqual([
      'not_started',
      'waits on Add the table, Migrate and 1 more',
      'unblock',
    ]);
    const dead = item({
      status: 'blocked',
      display_status: 'needs_you',
      waiting_on: [dep('Migrate', 'paused'), dep('Add the table', 'abandoned')],
      stop: { kind: 'dependency', reason: 'it comes after …', suggested_action: null },
    });
    expect([groupOf(dead), reasonOf(dead), actionOf(dead)]).toEqual([
      'needs',
      'Add the table was abandoned',
      'unblock',
    ]);
  });

  it('says why an item needs you and offers the one action for it', () => {
    expect([reasonOf(stopped('gate', 'spec_approval')), actionOf(stopped('gate'))]).toEqual([
      'approve spec_approval',
      'review',
    ]);
    expect([reasonOf(stopped('failed', 'implementation')), actionOf(stopped('failed'))]).toEqual([
      'failed at implementation',
      'retry',
    ]);
    expect(actionOf(stopped('budget'))).toBe('raise_cap');
    expect(actionOf(stopped('question'))).toBe('answer');
    expect([reasonOf(item({})), actionOf(item({}))]).toEqual([null, 'resume']);
    expect(reasonOf(stopped('mr_closed', 'open_mr'))).toBe('its merge request was closed');
    expect(reasonOf(stopped('wait', 'merge'))).toBe('a forge wait timed out at merge');
  });

  it('says Start for a paused item never started and Resume for one that ran, as the peek does', () => {
    const fresh = item({});
    const ran = item({ started_at: base.created_at });
    expect([actionOf(fresh), actionLabel(fresh, actionOf(fresh))]).toEqual(['resume', 'Start']);
    expect([actionOf(ran), actionLabel(ran, actionOf(ran))]).toEqual(['resume', 'Resume']);
    expect(actionLabel(stopped('failed'), 'retry')).toBe('Retry…');
  });

  it('keeps the four groups in order, the oldest wait first, and only the newest five done', () => {
    const done = Array.from({ length: 7 }, (_, i) =>
      item({
        id: `done000${i}`,
        status: 'completed',
        display_status: 'done',
        ended_at: `2026-11-24T10:0${i}:00.000Z`,
      }),
    );
    const waits = [
      { ...stopped('gate'), id: 'late0000', updated_at: '2026-11-24T11:00:00.000Z' },
      { ...stopped('failed'), id: 'early000', updated_at: '2026-11-24T09:00:00.000Z' },
    ];
    const g = groupItems([...done, ...waits], false);
    expect(g.map((x) => [x.title, x.total])).toEqual([
      ['Needs you', 2],
      ['Running', 0],
      ['Not started', 0],
      ['Done', 7],
    ]);
    expect(g[0]!.items.map((i) => i.id)).toEqual(['early000', 'late0000']);
    expect(g[3]!.items.map((i) => i.id)).toEqual([
      'done0006',
      'done0005',
      'done0004',
      'done0003',
      'done0002',
    ]);
    expect(groupItems(done, true)[3]!.items).toHaveLength(7);
  });

  it('writes ages the way a row shows them', () => {
    const t = Date.parse('2026-11-24T10:00:00.000Z');
    expect(
      [
        '2026-11-24T09:59:30.000Z',
        '2026-11-24T09:30:00.000Z',
        '2026-11-24T07:00:00.000Z',
        '2026-11-20T10:00:00.000Z',
      ].map((x) => age(x, t)),
    ).toEqual(['30 s', '30 min', '3 h', '4 d']);
  });

  it('groups by repo or chain, each sorted as asked', () => {
    const a = item({
      id: 'a0000000',
      title: 'b task',
      repo: '/x/one',
      chain: 'default',
      updated_at: '2026-11-24T10:05:00.000Z',
    });
    const b = { ...stopped('gate'), id: 'b0000000', title: 'a task', repo: '/x/two', chain: 'default' };
    const c = item({
      id: 'c0000000',
      title: 'c task',
      repo: '/x/one',
      chain: 'manual',
      created_at: '2026-11-24T11:00:00.000Z',
    });
    expect(
      arrange([a, b, c], 'repo', 'title', false).map((g) => [g.id, g.title, g.items.map((i) => i.id)]),
    ).toEqual([
      ['repo:/x/one', 'one', ['a0000000', 'c0000000']],
      ['repo:/x/two', 'two', ['b0000000']],
    ]);
    expect(arrange([a, b, c], 'chain', 'attention', false)[0]!.items.map((i) => i.id)).toEqual([
      'b0000000',
      'a0000000',
    ]);
    expect(arrange([a, b, c], 'status', 'created', false)[2]!.items.map((i) => i.id)).toEqual([
      'c0000000',
      'a0000000',
    ]);
  });
});
