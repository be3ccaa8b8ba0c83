import { describe, expect, it } from 'vitest';
import { frameReader } from '../../test/helpers/ws-frames.js';
import { textFrames } from './ws-frame.js';

describe('textFrames', () => {
  it('frames messages of every length encoding so a ws client reads them back, in order', () => {
    const texts = [
      '',
      'a',
      'x'.repeat(125),
      'é'.repeat(63),
      'y'.repeat(126),
      'z'.repeat(65_535),
      '✓'.repeat(30_000),
    ];
    const { bytes, offsets } = textFrames(texts);
    const reader = frameReader();
    reader.write(bytes);
    expect(reader.messages).toEqual(texts);
    // Each offset starts a whole frame: reading from any of them yields the messages from there on.
    offsets.forEach((at, i) => {
      const from = frameReader();
      from.write(bytes.subarray(at));
      expect(from.messages).toEqual(texts.slice(i));
    });
  });
});
