import { describe, expect, it } from 'vitest';
import { selectionAfter } from './use-chain-editor.js';

describe('the chain editor selection', () => {
  it('follows a rename and a new node, and is cleared by a removal', () => {
    expect(selectionAfter('build', [{ op: 'rename', path: 'build', id: 'compile' }])).toBe('compile');
    expect(selectionAfter('build', [{ op: 'rename', path: 'test', id: 'check' }])).toBe('build');
    expect(selectionAfter(null, [{ op: 'add_node', at: 0, id: 'lint', kind: 'exec' }])).toBe('lint');
    expect(selectionAfter('build', [{ op: 'remove', path: 'build' }])).toBeNull();
    expect(selectionAfter('build', [{ op: 'move', path: 'build', to: 2 }])).toBe('build');
  });
});
