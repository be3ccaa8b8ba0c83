import { describe, expect, it } from 'vitest';
import { background } from './background.js';

function recorder() {
  const lines: { ctx: Record<string, unknown>; msg: string }[] = [];
  return {
    lines,
    log: { error: (ctx: Record<string, unknown>, msg: string) => void lines.push({ ctx, msg }) },
  };
}

describe('background', () => {
  it('logs a rejection with what failed and its context, and nothing is left unhandled', async () => {
    const { lines, log } = recorder();
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const boom = new Error('boom');
      background(log as never, 'starting queued items', () => Promise.reject(boom), { item: 'W1' });
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      expect(lines).toEqual([{ ctx: { err: boom, item: 'W1' }, msg: 'starting queued items failed' }]);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('logs a synchronous throw the same way, and says nothing when the work succeeds', async () => {
    const { lines, log } = recorder();
    const bad = new Error('sync');
    background(log as never, 'parking', () => {
      throw bad;
    });
    background(log as never, 'fine', async () => 1);
    await new Promise((r) => setImmediate(r));
    expect(lines).toEqual([{ ctx: { err: bad }, msg: 'parking failed' }]);
  });
});
