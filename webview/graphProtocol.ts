/**
 * The memory graph panel's message protocol, shared by the extension host (src/host/memoryGraphPanel.ts) and the
 * webview (webview/memoryGraph.ts). Plain TypeScript: no `vscode`, no DOM, only type imports from src/, so both
 * bundles can include it.
 *
 * Both directions are checked with the guards below: the page is a trust boundary (it can post anything), and
 * every label, summary and source word is memory text nobody vetted.
 */
// Type-only: the graph's shape has one definition, in src/core; erased at build time.
import type { MemoryEdge, MemoryGraph, MemoryNode, MemoryNodeKind } from '../src/core/memory/memoryGraph';
import type { GraphAction, Provenance, ProvenanceEvent } from '../src/core/memory/memoryGraphProvenance';
import { hasOnlyKeys, isCount, isOptionalString, isRecord } from './guards';

export type { GraphAction, MemoryEdge, MemoryGraph, MemoryNode, MemoryNodeKind, Provenance, ProvenanceEvent };

/** The command each action runs; each takes the statement id as its first argument. */
export const actionCommands: Readonly<Record<GraphAction, string>> = {
  forget: 'engram.forgetFact',
  edit: 'engram.editFact',
  showSource: 'engram.showSourceTurn',
};

/** Host → webview. */
export type GraphMessageToWebview =
  | { readonly type: 'graph'; readonly graph: MemoryGraph }
  /** undefined: the selected node is gone (forgotten, say) or nothing is selected. */
  | { readonly type: 'provenance'; readonly nodeId: string; readonly provenance: Provenance | undefined }
  | { readonly type: 'error'; readonly message: string };

/** Webview → host. */
export type GraphMessageToHost =
  | { readonly type: 'ready' }
  | { readonly type: 'expand'; readonly nodeId: string }
  | { readonly type: 'collapse'; readonly nodeId: string }
  | { readonly type: 'select'; readonly nodeId: string }
  | { readonly type: 'action'; readonly action: GraphAction; readonly statementId: string }
  /** How long the page took to lay out and draw the last graph, in milliseconds, and how many nodes it drew. */
  | { readonly type: 'rendered'; readonly nodes: number; readonly ms: number };

/** Longest node or statement id the host accepts from the page; real ones are far shorter. */
export const MAX_ID_LENGTH = 400;
/** More nodes than any memory holds: a rendered report above it is nonsense. */
const MAX_RENDERED_NODES = 10_000_000;

export const nodeKinds: readonly string[] = ['you', 'key', 'fact', 'behavior', 'session', 'retiredGroup', 'retired', 'project'] satisfies MemoryNodeKind[];
export const graphActions: readonly string[] = ['forget', 'edit', 'showSource'] satisfies GraphAction[];

/** True for exactly the messages the page may send: known type, expected fields, nothing else. */
export function isGraphMessageToHost(value: unknown): value is GraphMessageToHost {
  if (!isRecord(value)) return false;
  switch (value.type) {
    case 'ready':
      return hasOnlyKeys(value, ['type']);
    case 'expand':
    case 'collapse':
    case 'select':
      return hasOnlyKeys(value, ['type', 'nodeId']) && isId(value.nodeId);
    case 'action':
      return (
        hasOnlyKeys(value, ['type', 'action', 'statementId']) &&
        typeof value.action === 'string' &&
        graphActions.includes(value.action) &&
        isId(value.statementId)
      );
    case 'rendered':
      return (
        hasOnlyKeys(value, ['type', 'nodes', 'ms']) &&
        typeof value.nodes === 'number' &&
        Number.isInteger(value.nodes) &&
        value.nodes >= 0 &&
        value.nodes <= MAX_RENDERED_NODES &&
        typeof value.ms === 'number' &&
        Number.isFinite(value.ms) &&
        value.ms >= 0
      );
    default:
      return false;
  }
}

/** True for a well-formed host message; the page drops anything else instead of drawing half of it. */
export function isGraphMessageToWebview(value: unknown): value is GraphMessageToWebview {
  if (!isRecord(value)) return false;
  switch (value.type) {
    case 'graph':
      return isMemoryGraph(value.graph);
    case 'provenance':
      return typeof value.nodeId === 'string' && (value.provenance === undefined || isProvenance(value.provenance));
    case 'error':
      return typeof value.message === 'string';
    default:
      return false;
  }
}

export function isMemoryGraph(value: unknown): value is MemoryGraph {
  if (!isRecord(value) || typeof value.rootId !== 'string' || !Array.isArray(value.nodes) || !Array.isArray(value.edges)) return false;
  const counts = value.counts;
  if (!isRecord(counts) || !['facts', 'keys', 'behaviors', 'sessions', 'retired'].every((name) => isCount(counts[name]))) return false;
  if (!value.nodes.every(isMemoryNode) || !value.edges.every(isMemoryEdge)) return false;
  // The page draws a tree: one root, the one named, and every parent shown before its children.
  const seen = new Set<string>();
  for (const node of value.nodes as MemoryNode[]) {
    if (seen.has(node.id)) return false;
    if (node.parent === undefined ? node.id !== value.rootId : !seen.has(node.parent)) return false;
    seen.add(node.id);
  }
  return seen.has(value.rootId);
}

export function isMemoryNode(value: unknown): value is MemoryNode {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    value.id.length > 0 &&
    typeof value.kind === 'string' &&
    nodeKinds.includes(value.kind) &&
    typeof value.label === 'string' &&
    (value.detail === undefined || typeof value.detail === 'string') &&
    (value.parent === undefined || typeof value.parent === 'string') &&
    typeof value.expandable === 'boolean' &&
    typeof value.expanded === 'boolean' &&
    (value.muted === undefined || typeof value.muted === 'boolean') &&
    (value.childCount === undefined || isCount(value.childCount))
  );
}

export function isMemoryEdge(value: unknown): value is MemoryEdge {
  return isRecord(value) && typeof value.from === 'string' && typeof value.to === 'string' && (value.kind === 'child' || value.kind === 'source');
}

export function isProvenance(value: unknown): value is Provenance {
  return (
    isRecord(value) &&
    typeof value.nodeId === 'string' &&
    typeof value.kind === 'string' &&
    nodeKinds.includes(value.kind) &&
    typeof value.title === 'string' &&
    isOptionalString(value.status) &&
    isOptionalString(value.statementId) &&
    isOptionalString(value.words) &&
    isOptionalString(value.wordsLabel) &&
    isOptionalString(value.turnId) &&
    isOptionalString(value.sessionId) &&
    Array.isArray(value.facts) &&
    value.facts.every((fact) => isRecord(fact) && typeof fact.label === 'string' && typeof fact.value === 'string') &&
    Array.isArray(value.history) &&
    value.history.every(isProvenanceEvent) &&
    Array.isArray(value.actions) &&
    value.actions.every((action) => typeof action === 'string' && graphActions.includes(action)) &&
    // An action needs the statement it acts on.
    (value.actions.length === 0 || typeof value.statementId === 'string')
  );
}

function isProvenanceEvent(value: unknown): value is ProvenanceEvent {
  return (
    isRecord(value) &&
    typeof value.at === 'string' &&
    typeof value.action === 'string' &&
    typeof value.reason === 'string' &&
    isOptionalString(value.turnId)
  );
}

function isId(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_ID_LENGTH;
}
