import assert from 'node:assert/strict';
import type { MemoryNode } from '../../src/core/memory/memoryGraph';
import { treeMove } from '../../webview/graphKeys';

const node = (id: string, extra: Partial<MemoryNode> = {}): MemoryNode =>
  ({ id, kind: 'key', label: id, expandable: true, expanded: false, parent: 'you', ...extra }) as MemoryNode;
const order = ['you', 'key:editor', 'key:employer', 'key:shell'];
const label = (id: string): string => id.replace('key:', '');

describe('memory graph keys (the ARIA tree pattern)', () => {
  it('walks, opens, steps in and out', () => {
    assert.deepEqual(treeMove('ArrowDown', node('key:editor'), 1, order, label), { kind: 'focusIndex', index: 2 });
    assert.deepEqual(treeMove('End', node('key:editor'), 1, order, label), { kind: 'focusIndex', index: 3 });
    assert.equal(treeMove('ArrowRight', node('key:editor'), 1, order, label)?.kind, 'expand');
    assert.deepEqual(treeMove('ArrowRight', node('key:editor', { expanded: true }), 1, order, label), { kind: 'focusFirstChild', id: 'key:editor' });
    assert.equal(treeMove('ArrowLeft', node('key:editor', { expanded: true }), 1, order, label)?.kind, 'collapse');
    assert.deepEqual(treeMove('ArrowLeft', node('key:editor'), 1, order, label), { kind: 'focusNode', id: 'you' });
    assert.equal(treeMove('ArrowLeft', node('you', { kind: 'you', expanded: true, parent: undefined }), 0, order, label)?.kind, 'none', 'You never closes');
    assert.equal(treeMove('Enter', node('key:editor'), 1, order, label)?.kind, 'activate');
  });

  it('jumps to the next label starting with a typed letter, and ignores other keys', () => {
    assert.deepEqual(treeMove('s', node('key:editor'), 1, order, label), { kind: 'focusNode', id: 'key:shell' });
    assert.equal(treeMove('q', node('key:editor'), 1, order, label), undefined);
    assert.equal(treeMove('Tab', node('key:editor'), 1, order, label), undefined);
  });
});
