import { describe, expect, it } from 'vitest';
import { itemUrl, notifyBody, notifyText, type NotifyFacts } from './message.js';

const facts: NotifyFacts = {
  work_item_id: 'abc',
  title: 'Fix <!channel> & @everyone',
  type: 'gate_requested',
  gate: 'review',
  reason: 'Look at it',
  repo: '/r',
  url: 'https://jig.example/work-items/abc',
  at: '2026-11-25T00:00:00.000Z',
};

describe('notification messages', () => {
  it('say what, which item, why and where', () => {
    expect(notifyText(facts)).toBe(
      'Jig: Fix <!channel> & @everyone waits for your approval at gate review\nLook at it\nhttps://jig.example/work-items/abc',
    );
    expect(notifyText({ ...facts, url: null, reason: null, gate: null, type: 'work_item_completed' })).toBe(
      'Jig: Fix <!channel> & @everyone completed\njig view show abc',
    );
    expect(itemUrl('https://jig.example//', 'abc')).toBe('https://jig.example/work-items/abc');
    expect(itemUrl(null, 'abc')).toBeNull();
  });

  it('never lets a title mention a whole channel on Slack or Discord', () => {
    expect(notifyBody(facts, { format: 'slack', chat_id: null })).toEqual({
      text: 'Jig: Fix &lt;!channel&gt; &amp; @everyone waits for your approval at gate review\nLook at it\nhttps://jig.example/work-items/abc',
    });
    expect(notifyBody(facts, { format: 'discord', chat_id: null })).toMatchObject({
      allowed_mentions: { parse: [] },
    });
    expect(notifyBody(facts, { format: 'telegram', chat_id: 42 })).toMatchObject({ chat_id: 42 });
    expect(notifyBody(facts, { format: 'json', chat_id: null })).toMatchObject({
      ...facts,
      text: notifyText(facts),
    });
  });
});
