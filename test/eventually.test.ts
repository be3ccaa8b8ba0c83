import { describe, expect, it } from 'vitest';
import { eventually } from './helpers/eventually.js';

describe('eventually', () => {
  it('answers the first answer that is not undefined or false, trying again after a throw', async () => {
    const answers: unknown[] = [undefined, false, new Error('not up yet'), 0];
    let calls = 0;
    const got = await eventually(
      () => {
        const a = answers[calls++];
        if (a instanceof Error) throw a;
        return a as number | undefined | false;
      },
      { what: 'a zero', everyMs: 1 },
    );
    expect([got, calls]).toEqual([0, 4]);
    expect(await eventually(async () => null, { what: 'null', everyMs: 1 })).toBeNull();
  });

  it('gives up after its tries, naming what it waited for with the last answer and error', async () => {
    let calls = 0;
    const waiting = eventually(
      () => {
        calls++;
        if (calls % 2 === 1) throw new Error(`refused ${calls}`);
        return false;
      },
      { what: 'the door to open', tries: 3, everyMs: 1 },
    );
    await expect(waiting).rejects.toThrow(
      'gave up waiting for the door to open after 3 tries 1 ms apart; last answer: false; last error: refused 3',
    );
    expect(calls).toBe(3);
    await expect(eventually(() => undefined, { what: 'nothing', tries: 2, everyMs: 1 })).rejects.toThrow(
      /^gave up waiting for nothing after 2 tries 1 ms apart; last answer: undefined$/,
    );
  });
});
