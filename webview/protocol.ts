/**
 * The context panel's message protocol, shared by the extension host (src/host/contextPanel.ts) and the
 * webview (webview/contextPanel.ts). Plain TypeScript: no `vscode`, no DOM, only type imports from src/,
 * so both bundles can include it.
 *
 * Both directions are checked with the guards below: messages from the webview cross a trust boundary
 * (a compromised or buggy page can post anything), and reports carry memory text the owner never vetted.
 */
// A type-only import, erased at compile time: the report's shape has one definition, in src/core.
import type { BlockState, ContextBlock, ContextLayer, ContextReport, RetrievalEntry } from '../src/core/context/contextReport';
import { escapeHtml, hasOnlyKeys, isCount, isRecord } from './guards';

export type { BlockState, ContextBlock, ContextLayer, ContextReport, RetrievalEntry };

/** One assistant turn the picker can show; `label` is a short human line, e.g. "14:02 · how do I…". */
export interface TurnSummary {
  readonly turnId: string;
  /** ISO 8601 time of the turn. */
  readonly at: string;
  readonly sessionId: string;
  readonly label: string;
}

/** Host → webview. */
export type MessageToWebview =
  | {
      readonly type: 'report';
      /** undefined: no turn has been answered yet (or the selected one is gone). */
      readonly report: ContextReport | undefined;
      /** Latest first. */
      readonly turns: readonly TurnSummary[];
      readonly selectedTurnId?: string;
    }
  | { readonly type: 'error'; readonly message: string };

/** Webview → host. */
export type MessageToHost =
  | { readonly type: 'ready' }
  | { readonly type: 'selectTurn'; readonly turnId: string }
  | { readonly type: 'compactNow' };

/** Longest turn id the host accepts from the webview; real ids are far shorter. */
export const MAX_TURN_ID_LENGTH = 200;

export { escapeHtml };

/** True for exactly the messages the webview may send: known type, expected fields, nothing else. */
export function isMessageToHost(value: unknown): value is MessageToHost {
  if (!isRecord(value)) return false;
  switch (value.type) {
    case 'ready':
    case 'compactNow':
      return hasOnlyKeys(value, ['type']);
    case 'selectTurn':
      return (
        hasOnlyKeys(value, ['type', 'turnId']) &&
        typeof value.turnId === 'string' &&
        value.turnId.length > 0 &&
        value.turnId.length <= MAX_TURN_ID_LENGTH
      );
    default:
      return false;
  }
}

/** True for a well-formed host message; the webview drops anything else instead of rendering half of it. */
export function isMessageToWebview(value: unknown): value is MessageToWebview {
  if (!isRecord(value)) return false;
  switch (value.type) {
    case 'report':
      return (
        (value.report === undefined || isContextReport(value.report)) &&
        Array.isArray(value.turns) &&
        value.turns.every(isTurnSummary) &&
        (value.selectedTurnId === undefined || typeof value.selectedTurnId === 'string')
      );
    case 'error':
      return typeof value.message === 'string';
    default:
      return false;
  }
}

export function isTurnSummary(value: unknown): value is TurnSummary {
  return (
    isRecord(value) &&
    typeof value.turnId === 'string' &&
    typeof value.at === 'string' &&
    typeof value.sessionId === 'string' &&
    typeof value.label === 'string'
  );
}

export function isContextReport(value: unknown): value is ContextReport {
  if (!isRecord(value)) return false;
  const { model, health } = value;
  return (
    typeof value.turnId === 'string' &&
    typeof value.sessionId === 'string' &&
    typeof value.at === 'string' &&
    isRecord(model) &&
    typeof model.id === 'string' &&
    typeof model.name === 'string' &&
    typeof model.vendor === 'string' &&
    isCount(value.window) &&
    (value.windowWhy === undefined || (typeof value.windowWhy === 'string' && value.windowWhy.length <= 400)) &&
    (value.systemDelivery === undefined || value.systemDelivery === 'system message' || value.systemDelivery === 'first user message') &&
    isCount(value.budget) &&
    isCount(value.totalTokens) &&
    Array.isArray(value.blocks) &&
    value.blocks.every(isContextBlock) &&
    Array.isArray(value.retrieval) &&
    value.retrieval.every(isRetrievalEntry) &&
    isRecord(health) &&
    typeof health.fill === 'number' &&
    Number.isFinite(health.fill) &&
    typeof health.nextToGo === 'string'
  );
}

const layers: readonly string[] = ['L0', 'L1', 'L2'] satisfies ContextLayer[];
const states: readonly string[] = ['included', 'truncated', 'absent'] satisfies BlockState[];
const kinds: readonly string[] = ['fact', 'behavior', 'summary', 'turn'] satisfies RetrievalEntry['kind'][];

export function isContextBlock(value: unknown): value is ContextBlock {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    typeof value.layer === 'string' &&
    layers.includes(value.layer) &&
    typeof value.title === 'string' &&
    typeof value.state === 'string' &&
    states.includes(value.state) &&
    isCount(value.tokens) &&
    isCount(value.fullTokens) &&
    typeof value.why === 'string' &&
    typeof value.text === 'string'
  );
}

export function isRetrievalEntry(value: unknown): value is RetrievalEntry {
  return (
    isRecord(value) &&
    typeof value.kind === 'string' &&
    kinds.includes(value.kind) &&
    typeof value.memoryId === 'string' &&
    typeof value.via === 'string' &&
    (value.via === 'prompt' || value.via.startsWith('tool:') || value.via.startsWith('mcp:')) &&
    typeof value.label === 'string'
  );
}
