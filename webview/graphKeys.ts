// The memory graph's keyboard model, as the WAI-ARIA tree pattern has it: what a key means for the focused node.
// Pure: the page carries the answer out (focus a node, ask the host to expand or collapse, select).
import type { MemoryNode } from './graphProtocol';

export type TreeMove =
  | { readonly kind: 'focusIndex'; readonly index: number }
  | { readonly kind: 'focusNode'; readonly id: string }
  | { readonly kind: 'focusFirstChild'; readonly id: string }
  | { readonly kind: 'expand' | 'collapse' | 'activate'; readonly node: MemoryNode }
  | { readonly kind: 'none' };

/**
 * The move for `key` on the node at `index` of the visible `order`. Right opens (or steps in), Left closes (or steps
 * out), Up/Down/Home/End walk the visible nodes, Enter and Space select, a printable key jumps to the next label
 * starting with it. Undefined: not a key the tree handles.
 */
export function treeMove(key: string, node: MemoryNode, index: number, order: readonly string[], labelOf: (id: string) => string | undefined): TreeMove | undefined {
  switch (key) {
    case 'ArrowDown':
      return { kind: 'focusIndex', index: index + 1 };
    case 'ArrowUp':
      return { kind: 'focusIndex', index: index - 1 };
    case 'Home':
      return { kind: 'focusIndex', index: 0 };
    case 'End':
      return { kind: 'focusIndex', index: order.length - 1 };
    case 'ArrowRight':
      if (node.expandable && !node.expanded) return { kind: 'expand', node };
      return node.expanded ? { kind: 'focusFirstChild', id: node.id } : { kind: 'none' };
    case 'ArrowLeft':
      if (node.expandable && node.expanded && node.kind !== 'you') return { kind: 'collapse', node };
      return node.parent !== undefined ? { kind: 'focusNode', id: node.parent } : { kind: 'none' };
    case 'Enter':
    case ' ':
      return { kind: 'activate', node };
  }
  if (key.length !== 1 || !/\S/.test(key)) return undefined;
  const wanted = key.toLocaleLowerCase();
  for (let step = 1; step <= order.length; step++) {
    const id = order[(index + step) % order.length];
    if (id !== undefined && labelOf(id)?.toLocaleLowerCase().startsWith(wanted)) return { kind: 'focusNode', id };
  }
  return undefined;
}
