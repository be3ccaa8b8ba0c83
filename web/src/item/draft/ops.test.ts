import { describe, expect, it } from 'vitest';
import type { ModelNode } from '../../../../src/contract/config/chain-model.js';
import { addPoints, bare, describeOp, editableNodes, freeId } from './ops.js';

const exec = (id: string): ModelNode => ({ id, kind: 'exec', path: id, steps: [] });
const chain: ModelNode[] = [exec('build'), { id: 'review', kind: 'gate', path: 'review' }, exec('finish')];

describe('item draft ops', () => {
  it('says what each op does', () => {
    expect(
      describeOp({ op: 'add_node', after: 'build', node: { id: 'lint', extends: 'verification' } }),
    ).toBe('Add lint after build (library node verification)');
    expect(
      describeOp({
        op: 'add_node',
        after: 'build',
        node: { id: 'x', tasks: [{ id: 'a', extends: 'marker' }] },
      }),
    ).toBe('Add x after build (library tasks marker)');
    expect(describeOp({ op: 'remove_node', node: 'finish' })).toBe('Remove finish');
    expect(describeOp({ op: 'skip', path: 'finish.main.last' })).toBe('Skip finish.main.last');
    expect(describeOp({ op: 'override', path: 'finish', task_config: { model: 'opus' } })).toBe(
      'Override finish: model opus',
    );
  });

  it('drops the passed mark for a PUT', () => {
    expect(bare({ op: 'remove_node', node: 'finish', passed: false })).toEqual({
      op: 'remove_node',
      node: 'finish',
    });
  });

  it('edits only what comes after the current node, and adds after it or later', () => {
    expect([...editableNodes(chain, 'build')]).toEqual(['review', 'finish']);
    expect([...editableNodes(chain, null)]).toEqual(['build', 'review', 'finish']);
    expect([...editableNodes(chain, 'finish')]).toEqual([]);
    expect(addPoints(chain, 'review')).toEqual(['review', 'finish']);
    expect(addPoints(chain, null)).toEqual(['build', 'review', 'finish']);
  });

  it('finds a free node id', () => {
    expect(freeId('lint', chain)).toBe('lint');
    expect(freeId('build', chain)).toBe('build_2');
  });
});
