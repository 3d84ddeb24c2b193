/**
 * The memory graph's page: what Engram believes about the owner, opening on "You" and expanded by click or keys.
 * Bundled by esbuild (IIFE, browser) into dist/webview/memoryGraph.js, with memoryGraph.css beside it.
 *
 * The layout is @antv/hierarchy's compactBox (a tidy tree with nodes of their own widths). The page is one ARIA
 * tree: every node is a role=treeitem <li>, nested in role=group lists as in the graph, positioned where the
 * layout put it, with edges drawn in an SVG underneath. So the visual is the accessible tree: Tab reaches it,
 * the arrow keys walk it, and each node has a label a screen reader reads.
 *
 * Every label, summary and source word is memory text: the DOM is built with createElement and textContent
 * only, and attributes are set with setAttribute; nothing here parses a string as HTML.
 */
import { el, vsCodeApi } from './dom';
import { countsText, fillDetails, pageFrame, type PageFrame } from './graphDetails';
import { readGraphState, type GraphState } from './graphState';
import { treeMove } from './graphKeys';
import { ariaLabel, edgePath, layoutGraph, MARGIN, MIN_WIDTH, NODE_HEIGHT, shownText, SVG_NS } from './graphLayout';
import { addBackToYou, inView, keepOnScreen, revealStart, screenOffset, updateBackToYou } from './graphScroll';
import {
  graphActions,
  isGraphMessageToWebview,
  type GraphMessageToHost,
  type MemoryGraph,
  type MemoryNode,
  type Provenance,
} from './graphProtocol';
import './memoryGraph.css';

const vscode = vsCodeApi();

function post(message: GraphMessageToHost): void {
  vscode.postMessage(message);
}

// ---- state -------------------------------------------------------------------------------------------------

const saved = readGraphState(vscode);
let graph: MemoryGraph | undefined;
let selectedId: string | undefined = saved.selectedId;
let focusedId: string | undefined = saved.focusedId;
let provenance: Provenance | undefined;
let provenanceFor: string | undefined;
let errorText: string | undefined;
/** Asked the host for the saved selection once, after the first graph. */
let restoredSelection = false;

/** The drawn nodes: element, box and place in the visible order. */
interface Drawn {
  readonly node: MemoryNode;
  readonly item: HTMLLIElement;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly index: number;
}
let drawn = new Map<string, Drawn>();
let order: string[] = [];
let sourceLayer: SVGGElement | undefined;
/** The ancestors of the focused node as last drawn, to fall back on when it goes. */
const focusedParents = new Map<string, string | undefined>();

function saveState(): void {
  vscode.setState({ selectedId, focusedId } satisfies GraphState);
}

// ---- rendering ---------------------------------------------------------------------------------------------

/** The page's frame, built once (with an empty details pane); later calls find it. */
function frame(): PageFrame | undefined {
  const found = pageFrame();
  if (found?.created) {
    renderDetails(found.details);
    addBackToYou(found.scroller, () => rootOffset(found.scroller), () => backToYou(found.scroller));
  }
  return found;
}

/** The drawn box of a node, for the scroll geometry. */
const boxOf = (id: string): HTMLElement | undefined => drawn.get(id)?.item.querySelector<HTMLElement>(':scope > .box') ?? undefined;
const rootOffset = (scroller: HTMLElement): { x: number; y: number } | undefined => (graph ? screenOffset(scroller, boxOf, graph.rootId) : undefined);

function backToYou(scroller: HTMLElement): void {
  if (!graph) return;
  const you = drawn.get(graph.rootId);
  if (!you) return;
  scroller.scrollTo({ top: Math.max(0, you.y - MARGIN), left: Math.max(0, you.x - MARGIN) });
  focusNode(graph.rootId, true);
}

/** Draws the graph (timed, and the time posted to the host) and shows the error, if any. */
function render(): void {
  const parts = frame();
  if (!parts) return;
  parts.error.textContent = errorText ?? '';
  parts.error.hidden = !errorText;
  if (!graph) return;
  parts.counts.textContent = countsText(graph);
  const active = document.activeElement;
  const hadFocus = active instanceof HTMLElement && active.getAttribute('role') === 'treeitem' && parts.scroller.contains(active);
  // The tidy-tree layout moves every node when one opens (You is centred on its children), so the view used to
  // stay put while the tree slid away under it. Now You stays where it was on screen when it was in view, else
  // the node the owner acted on; the focus then brings that node in if it left.
  const rootBefore = screenOffset(parts.scroller, boxOf, graph.rootId);
  const anchorId = rootBefore && inView(parts.scroller, rootBefore) ? graph.rootId : (focusedId ?? graph.rootId);
  const before = anchorId === graph.rootId ? rootBefore : screenOffset(parts.scroller, boxOf, anchorId);
  const started = performance.now();
  parts.scroller.replaceChildren(drawGraph(graph));
  // Reading a laid-out size makes the browser do its layout now, so the time counts it.
  void parts.scroller.scrollHeight;
  const ms = performance.now() - started;
  keepOnScreen(parts.scroller, boxOf, drawn.has(anchorId) ? anchorId : graph.rootId, before);
  const back = document.getElementById('back-to-you');
  if (back) updateBackToYou(parts.scroller, back, rootOffset(parts.scroller));
  const focusedBox = focusedId === undefined ? undefined : drawn.get(focusedId)?.item.querySelector<HTMLElement>(':scope > .box');
  if (focusedBox && anchorId !== focusedId) revealStart(parts.scroller, focusedBox);
  document.body.dataset.renderMs = ms.toFixed(1);
  document.body.dataset.nodes = String(graph.nodes.length);
  post({ type: 'rendered', nodes: graph.nodes.length, ms: Math.round(ms * 10) / 10 });
  if (hadFocus) focusNode(focusedId, false);
}

/** Lays the graph out and builds the tree: positioned <li> items in nested groups, and the edges beneath. */
function drawGraph(current: MemoryGraph): HTMLElement {
  const byId = new Map(current.nodes.map((node) => [node.id, node] as const));
  const { widths, children, place, minX, minY, maxX, maxY } = layoutGraph(current, byId);

  const canvas = el('div', { className: 'canvas', id: 'canvas' });
  const width = maxX - minX + 2 * MARGIN;
  const height = maxY - minY + 2 * MARGIN;
  // CSSOM writes are not inline styles as far as the CSP is concerned.
  canvas.style.width = `${width}px`;
  canvas.style.height = `${height}px`;

  const svg = document.createElementNS(SVG_NS, 'svg');
  svg.setAttribute('class', 'edges');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  const treeEdges = document.createElementNS(SVG_NS, 'g');
  sourceLayer = document.createElementNS(SVG_NS, 'g');
  sourceLayer.setAttribute('class', 'source-edges');
  svg.append(treeEdges, sourceLayer);

  const tree = el('ul', { className: 'tree', id: 'tree' });
  tree.setAttribute('role', 'tree');
  tree.setAttribute('aria-label', 'What Engram believes about you');

  drawn = new Map();
  order = [];
  // The focused node is gone (forgotten, or its key closed): its parent, or its parent's parent, takes the focus.
  while (focusedId !== undefined && !byId.has(focusedId)) focusedId = focusedParents.get(focusedId);
  if (focusedId === undefined) focusedId = current.rootId;
  focusedParents.clear();

  const build = (node: MemoryNode, container: HTMLElement, origin: { x: number; y: number }, level: number, position: number, setSize: number): void => {
    const at = place(node.id);
    const nodeWidth = widths.get(node.id) ?? MIN_WIDTH;
    const item = el('li', { className: `node kind-${node.kind}` });
    item.setAttribute('role', 'treeitem');
    item.setAttribute('aria-label', ariaLabel(node, node.parent === undefined ? undefined : byId.get(node.parent)));
    item.setAttribute('aria-level', String(level));
    item.setAttribute('aria-posinset', String(position));
    item.setAttribute('aria-setsize', String(setSize));
    item.setAttribute('aria-selected', String(node.id === selectedId));
    if (node.expandable) item.setAttribute('aria-expanded', String(node.expanded));
    if (node.muted) item.classList.add('muted');
    if (node.id === selectedId) item.classList.add('selected');
    item.dataset.nodeId = node.id;
    item.dataset.kind = node.kind;
    item.tabIndex = node.id === focusedId ? 0 : -1;

    // Nested items are positioned against their parent item: coordinates relative to it.
    item.style.left = `${at.x - origin.x}px`;
    item.style.top = `${at.y - origin.y}px`;
    item.style.width = `${nodeWidth}px`;
    const box = el('span', { className: 'box' });
    box.setAttribute('aria-hidden', 'true');
    // On the box, not the item: a nested item would show its parent's tooltip.
    if (node.detail) box.title = node.detail;
    if (node.expandable) box.append(el('span', { className: 'marker', text: node.expanded ? '▾' : '▸' }));
    if (node.kind === 'retired' && node.detail) {
      box.append(el('span', { className: 'label', text: node.label }), el('span', { className: 'reason', text: ` · ${node.detail}` }));
    } else {
      box.append(el('span', { className: 'label', text: shownText(node) }));
    }
    item.append(box);
    container.append(item);
    drawn.set(node.id, { node, item, x: at.x, y: at.y, width: nodeWidth, index: order.length });
    order.push(node.id);

    const kids = children.get(node.id) ?? [];
    if (node.parent !== undefined) treeEdges.append(edgePath(drawn.get(node.parent), drawn.get(node.id), 'edge'));
    if (kids.length === 0) return;
    const group = el('ul', { className: 'group' });
    group.setAttribute('role', 'group');
    item.append(group);
    kids.forEach((kid, index) => build(kid, group, at, level + 1, index + 1, kids.length));
  };
  const rootNode = byId.get(current.rootId);
  if (rootNode) build(rootNode, tree, { x: 0, y: 0 }, 1, 1, 1);

  // A click would focus the item natively, and the browser scrolls a focused wide node's right end into view;
  // focusNode moves the focus itself, scrolling only as far as the node's start.
  tree.addEventListener('mousedown', (event) => event.preventDefault());
  tree.addEventListener('click', onTreeClick);
  tree.addEventListener('keydown', onTreeKey);
  tree.addEventListener('focusin', onTreeFocus);
  canvas.append(svg, tree);
  drawSourceEdges();
  return canvas;
}

/** Where a selected fact was said: a dashed line to its conversation (or from a conversation to its facts). */
function drawSourceEdges(): void {
  if (!sourceLayer || !graph) return;
  sourceLayer.replaceChildren();
  if (!selectedId) return;
  for (const edge of graph.edges) {
    if (edge.kind !== 'source' || (edge.from !== selectedId && edge.to !== selectedId)) continue;
    const from = drawn.get(edge.from);
    const to = drawn.get(edge.to);
    if (!from || !to) continue;
    const path = document.createElementNS(SVG_NS, 'path');
    path.setAttribute('class', 'source-edge');
    // Both ends on the left side of their boxes: the conversation sits in a column left of the facts.
    const x1 = from.x;
    const y1 = from.y + NODE_HEIGHT / 2;
    const x2 = to.x;
    const y2 = to.y + NODE_HEIGHT / 2;
    const reach = Math.min(80, 24 + Math.abs(y2 - y1) / 8);
    path.setAttribute('d', `M${x1},${y1} C${x1 - reach},${y1} ${x2 - reach},${y2} ${x2},${y2}`);
    sourceLayer.append(path);
  }
}

// ---- interaction -------------------------------------------------------------------------------------------

function itemOf(target: EventTarget | null): Drawn | undefined {
  const item = target instanceof Element ? target.closest<HTMLElement>('li[role="treeitem"]') : null;
  const id = item?.dataset.nodeId;
  return id === undefined ? undefined : drawn.get(id);
}

function onTreeClick(event: MouseEvent): void {
  const hit = itemOf(event.target);
  if (!hit) return;
  focusNode(hit.node.id, true);
  activate(hit.node);
}

function onTreeFocus(event: FocusEvent): void {
  const hit = itemOf(event.target);
  if (hit && hit.node.id !== focusedId) moveRovingTab(hit.node.id);
}

/** Enter, Space or a click: select (show where it came from) and open or close it. */
function activate(node: MemoryNode): void {
  select(node.id);
  if (node.expandable && node.kind !== 'you') toggle(node);
}

function toggle(node: MemoryNode): void {
  post({ type: node.expanded ? 'collapse' : 'expand', nodeId: node.id });
}

function select(id: string): void {
  if (selectedId === id && provenanceFor === id) return;
  const previous = selectedId === undefined ? undefined : drawn.get(selectedId);
  previous?.item.classList.remove('selected');
  previous?.item.setAttribute('aria-selected', 'false');
  selectedId = id;
  const current = drawn.get(id);
  current?.item.classList.add('selected');
  current?.item.setAttribute('aria-selected', 'true');
  provenance = undefined;
  provenanceFor = undefined;
  saveState();
  drawSourceEdges();
  const details = document.getElementById('details');
  if (details) renderDetails(details);
  post({ type: 'select', nodeId: id });
}

function onTreeKey(event: KeyboardEvent): void {
  const current = focusedId === undefined ? undefined : drawn.get(focusedId);
  if (!current || event.altKey || event.ctrlKey || event.metaKey) return;
  const move = treeMove(event.key, current.node, current.index, order, (id) => drawn.get(id)?.node.label);
  if (!move) return;
  event.preventDefault();
  switch (move.kind) {
    case 'focusIndex':
      return focusIndex(move.index);
    case 'focusNode':
      return focusNode(move.id, true);
    case 'focusFirstChild':
      return focusFirstChild(move.id);
    case 'expand':
    case 'collapse':
      return post({ type: move.kind, nodeId: move.node.id });
    case 'activate':
      return activate(move.node);
  }
}

function focusIndex(index: number): void {
  const id = order[Math.max(0, Math.min(order.length - 1, index))];
  if (id !== undefined) focusNode(id, true);
}

function focusFirstChild(id: string): void {
  const next = order[(drawn.get(id)?.index ?? -2) + 1];
  if (next !== undefined && drawn.get(next)?.node.parent === id) focusNode(next, true);
}

function moveRovingTab(id: string): void {
  const previous = focusedId === undefined ? undefined : drawn.get(focusedId);
  if (previous) previous.item.tabIndex = -1;
  focusedId = id;
  const current = drawn.get(id);
  if (current) current.item.tabIndex = 0;
  focusedParents.clear();
  for (let node = current?.node; node?.parent !== undefined; node = drawn.get(node.parent)?.node) focusedParents.set(node.id, node.parent);
  saveState();
}

function focusNode(id: string | undefined, move: boolean): void {
  if (id === undefined) return;
  const target = drawn.get(id);
  if (!target) return;
  if (move || focusedId !== id) moveRovingTab(id);
  // The browser's own scroll-into-view would bring a wide node's right end in and push its parents (You) out on
  // the left; scrolled here instead, a node's start stays in view.
  target.item.focus({ preventScroll: true });
  const scroller = document.getElementById('canvas-scroll');
  const box = target.item.querySelector<HTMLElement>(':scope > .box');
  if (scroller && box) revealStart(scroller, box);
}

// ---- details -----------------------------------------------------------------------------------------------

function renderDetails(details: HTMLElement): void {
  const active = document.activeElement;
  const focusedAction = active instanceof HTMLElement && details.contains(active) ? graphActions.find((action) => action === active.dataset.action) : undefined;
  details.replaceChildren();
  fillDetails(details, { selectedId, provenanceFor, provenance }, (action, statementId) => post({ type: 'action', action, statementId }));
  if (!focusedAction) return;
  const button = details.querySelector<HTMLElement>(`button[data-action="${focusedAction}"]`);
  // The button went with its node (Forget): the keyboard goes back to the tree, not to the top of the page.
  if (button) button.focus();
  else focusNode(focusedId, false);
}

// ---- messages ----------------------------------------------------------------------------------------------

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = event.data;
  if (!isGraphMessageToWebview(message)) {
    console.warn('engram memory graph: ignored a malformed message');
    return;
  }
  switch (message.type) {
    case 'graph':
      errorText = undefined;
      graph = message.graph;
      render();
      if (!restoredSelection) {
        restoredSelection = true;
        if (selectedId && message.graph.nodes.some((node) => node.id === selectedId)) post({ type: 'select', nodeId: selectedId });
        else if (selectedId) {
          selectedId = undefined;
          saveState();
          const details = document.getElementById('details');
          if (details) renderDetails(details);
        }
      }
      return;
    case 'provenance': {
      if (message.nodeId !== selectedId) return;
      provenance = message.provenance;
      provenanceFor = message.nodeId;
      const details = document.getElementById('details');
      if (details) renderDetails(details);
      return;
    }
    case 'error':
      errorText = message.message;
      render();
      return;
  }
});

post({ type: 'ready' });
