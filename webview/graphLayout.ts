// The memory graph's geometry: label widths measured with canvas, the tidy-tree layout (@antv/hierarchy's
// compactBox), and the accessible labels. No state: the page's drawing code calls it on every render.
import { compactBox, type HierarchyData, type HierarchyNode } from '@antv/hierarchy';
import { kindWords } from './graphDetails';
import type { MemoryGraph, MemoryNode } from './graphProtocol';

/** Geometry of a node box, in CSS pixels. */
export const NODE_HEIGHT = 26;
export const MIN_WIDTH = 48;
const MAX_WIDTH = 320;
/** Horizontal padding inside a box, plus room for the open/closed marker. */
const PADDING = 22;
const MARKER = 14;
/** Half the space between a parent's column and its children's, and between two rows. */
const H_GAP = 22;
const V_GAP = 3;
/** Space around the whole drawing. */
export const MARGIN = 16;

// ---- text measurement --------------------------------------------------------------------------------------

let measureContext: CanvasRenderingContext2D | null | undefined;
const widthCache = new Map<string, number>();

/** The width a label needs in the page's font (canvas measureText: no layout, no DOM). */
function textWidth(text: string, bold: boolean): number {
  const cacheKey = `${bold ? 'b' : 'n'}${text}`;
  const cached = widthCache.get(cacheKey);
  if (cached !== undefined) return cached;
  if (measureContext === undefined) measureContext = document.createElement('canvas').getContext('2d');
  let width = text.length * 7;
  if (measureContext) {
    const style = getComputedStyle(document.body);
    measureContext.font = `${bold ? '600 ' : ''}${style.fontSize || '13px'} ${style.fontFamily || 'sans-serif'}`;
    width = measureContext.measureText(text).width;
  }
  if (widthCache.size > 20_000) widthCache.clear();
  widthCache.set(cacheKey, width);
  return width;
}

export function shownText(node: MemoryNode): string {
  // A retired statement shows why, greyed, beside its words.
  if (node.kind === 'retired' && node.detail) return `${node.label} · ${node.detail}`;
  if ((node.kind === 'key' || node.kind === 'retiredGroup' || node.kind === 'project') && node.childCount !== undefined) return `${node.label} (${node.childCount})`;
  return node.label;
}

function boxWidth(node: MemoryNode): number {
  const bold = node.kind === 'you' || node.kind === 'key' || node.kind === 'retiredGroup' || node.kind === 'project';
  const needed = Math.ceil(textWidth(shownText(node), bold)) + PADDING + (node.expandable ? MARKER : 0);
  return Math.max(MIN_WIDTH, Math.min(MAX_WIDTH, needed));
}

// ---- labels ------------------------------------------------------------------------------------------------

export function ariaLabel(node: MemoryNode, parent: MemoryNode | undefined): string {
  switch (node.kind) {
    case 'you':
      return node.detail ? `You: ${node.detail}` : 'You';
    case 'key':
      return `${node.label}, ${node.detail ?? 'key'}`;
    case 'fact':
      return `${parent?.label ?? 'fact'}: ${node.label}, ${kindWords.fact}`;
    case 'behavior':
      return `${node.label}, ${kindWords.behavior}`;
    case 'session':
      return `${node.label}, ${kindWords.session}${node.detail ? ', with a summary' : ''}`;
    case 'retiredGroup':
      return `${node.label}, ${node.detail ?? 'retired statements'}`;
    case 'retired':
      return `${node.label}, ${kindWords.retired}${node.detail ? `: ${node.detail}` : ''}`;
    case 'project':
      return `${node.label}, ${node.detail ?? kindWords.project}`;
  }
}

/** Where every node goes: a tidy tree, left to right, each box as wide as its label, and the drawing's bounds. */
export function layoutGraph(current: MemoryGraph, byId: ReadonlyMap<string, MemoryNode>) {
  const widths = new Map(current.nodes.map((node) => [node.id, boxWidth(node)] as const));
  const children = new Map<string, MemoryNode[]>();
  for (const node of current.nodes) {
    if (node.parent === undefined) continue;
    const siblings = children.get(node.parent);
    if (siblings) siblings.push(node);
    else children.set(node.parent, [node]);
  }

  // The layout: a tidy tree, left to right, each node as wide as its label.
  const toData = (node: MemoryNode): HierarchyData => ({ id: node.id, children: (children.get(node.id) ?? []).map(toData) });
  const rootNode = byId.get(current.rootId);
  const boxes = new Map<string, { x: number; y: number }>();
  if (rootNode) {
    const laidOut = compactBox(toData(rootNode), {
      direction: 'LR',
      getId: (data) => String(data.id),
      getWidth: (data) => widths.get(String(data.id)) ?? MIN_WIDTH,
      getHeight: () => NODE_HEIGHT,
      getHGap: () => H_GAP,
      getVGap: () => V_GAP,
    });
    laidOut.eachNode((placed: HierarchyNode) => boxes.set(placed.id, { x: placed.x + placed.hgap, y: placed.y + placed.vgap }));
    // "You" at the top of its column, not halfway down 200 conversations: the page opens on it. (Only the root
    // moves: it is alone in its column, so nothing can overlap it.)
    const rootBox = boxes.get(rootNode.id);
    if (rootBox) for (const [id, box] of boxes) if (id !== rootNode.id) rootBox.y = Math.min(rootBox.y, box.y);
  }
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [id, box] of boxes) {
    minX = Math.min(minX, box.x);
    minY = Math.min(minY, box.y);
    maxX = Math.max(maxX, box.x + (widths.get(id) ?? 0));
    maxY = Math.max(maxY, box.y + NODE_HEIGHT);
  }
  if (!Number.isFinite(minX)) minX = minY = maxX = maxY = 0;
  const place = (id: string): { x: number; y: number } => {
    const box = boxes.get(id) ?? { x: minX, y: minY };
    return { x: box.x - minX + MARGIN, y: box.y - minY + MARGIN };
  };

  return { widths, children, place, minX, minY, maxX, maxY };
}

export const SVG_NS = 'http://www.w3.org/2000/svg';

/** A drawn node's box, in CSS pixels. */
export interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
}

/**
 * An elbow from a parent's right side to a child's left side: siblings share one vertical trunk, so a node with
 * 200 children draws one clean line instead of a fan.
 */
export function edgePath(from: Box | undefined, to: Box | undefined, className: string): SVGPathElement {
  const path = document.createElementNS(SVG_NS, 'path');
  path.setAttribute('class', className);
  if (!from || !to) return path;
  const x1 = from.x + from.width;
  const y1 = from.y + NODE_HEIGHT / 2;
  const x2 = to.x;
  const y2 = to.y + NODE_HEIGHT / 2;
  const trunk = Math.round(x1 + Math.max(6, (x2 - x1) / 2)) + 0.5;
  path.setAttribute('d', `M${x1},${y1 + 0.5} H${trunk} V${y2 + 0.5} H${x2}`);
  return path;
}
