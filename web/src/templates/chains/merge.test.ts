import { describe, expect, it } from 'vitest';
import { baseText, remember, sha256, threeWay } from './merge.js';

const BASE = [
  'nodes:',
  '  - id: a',
  '    kind: exec',
  '  - id: b',
  '    kind: exec',
  '  - id: c',
  '    kind: exec',
  '',
].join('\n');

describe('threeWay', () => {
  it('keeps both sides when they change different lines', () => {
    const mine = BASE.replace('id: a', 'id: first');
    const theirs = BASE.replace('id: c', 'id: last');
    expect(threeWay(BASE, mine, theirs)).toBe(
      BASE.replace('id: a', 'id: first').replace('id: c', 'id: last'),
    );
  });
  it('gives up when both sides change the same line', () => {
    expect(threeWay(BASE, BASE.replace('id: b', 'id: x'), BASE.replace('id: b', 'id: y'))).toBeNull();
  });
  it('takes the side that changed when the other did not', () => {
    const mine = BASE.replace('id: a', 'id: z');
    expect(threeWay(BASE, mine, BASE)).toBe(mine);
    expect(threeWay(BASE, BASE, mine)).toBe(mine);
  });
});

describe('remember', () => {
  it('keeps a published text only under the base hash it matches', async () => {
    const hash = await sha256(BASE);
    expect(await sha256('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    await remember({ published: { 'chains/x.yaml': BASE }, base: { 'chains/x.yaml': 'f'.repeat(64) } });
    expect(baseText('f'.repeat(64))).toBeNull();
    await remember({ published: { 'chains/x.yaml': BASE }, base: { 'chains/x.yaml': hash } });
    expect(baseText(hash)).toBe(BASE);
  });
});
