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

  it('fit Discord and Telegram by shortening the text, never splitting an emoji, always keeping the link', () => {
    const lone = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
    const family = '👨‍👩‍👧‍👦'; // one grapheme of 11 UTF-16 code units
    const long = { ...facts, title: `Fix ${'👍🏽'.repeat(900)}`, reason: family.repeat(500) };
    const discord = (notifyBody(long, { format: 'discord', chat_id: null }) as { content: string }).content;
    const telegram = (notifyBody(long, { format: 'telegram', chat_id: 7 }) as { text: string }).text;
    for (const [text, max] of [
      [discord, 2000],
      [telegram, 4096],
    ] as const) {
      expect(text.length).toBeLessThanOrEqual(max);
      expect(text.length).toBeGreaterThan(max - 12);
      expect(text).not.toMatch(lone);
      expect(text.endsWith('…\nhttps://jig.example/work-items/abc')).toBe(true);
      // Whole clusters only: what is kept is the headline's start, then whole families.
      const kept = text.slice(0, -'…\nhttps://jig.example/work-items/abc'.length);
      expect(
        `Jig: ${long.title} waits for your approval at gate review\n${long.reason}`.startsWith(kept),
      ).toBe(true);
      if (kept.includes('\n'))
        expect(
          kept
            .split('\n')[1]!
            .split(family)
            .every((p) => p === ''),
        ).toBe(true);
      else expect(kept.endsWith('👍🏽') || kept.endsWith('Fix')).toBe(true);
    }
    // Telegram fits the whole headline and some of the reason; Discord only part of the headline.
    expect(telegram).toContain('waits for your approval at gate review\n👨‍👩‍👧‍👦');
    expect(discord).not.toContain('\n👨');
    // A text that fits is sent whole; the link without base_url is the CLI command.
    expect(notifyBody({ ...facts, url: null }, { format: 'discord', chat_id: null })).toEqual({
      content:
        'Jig: Fix <!channel> & @everyone waits for your approval at gate review\nLook at it\njig view show abc',
      allowed_mentions: { parse: [] },
    });
  });
});
