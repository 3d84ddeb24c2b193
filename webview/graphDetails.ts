// The memory graph page's details pane (where a node came from) and the page frame.
// Every string here is memory text: it goes into the page through textContent only.
import type { MemoryGraph, MemoryNodeKind } from '../src/core/memory/memoryGraph';
import type { GraphAction, Provenance } from '../src/core/memory/memoryGraphProvenance';
import { el } from './dom';

export const kindWords: Record<MemoryNodeKind, string> = {
  you: 'you',
  key: 'key',
  fact: 'confirmed fact',
  behavior: 'approved behaviour',
  session: 'conversation',
  retiredGroup: 'group',
  retired: 'no longer believed',
  project: 'this project',
};

export const actionWords: Record<GraphAction, string> = {
  forget: 'Forget',
  edit: 'Edit value…',
  showSource: 'Show source turn',
};


/** What the details pane shows: the selected node and the provenance the host sent for it. */
export interface DetailsState {
  readonly selectedId: string | undefined;
  readonly provenanceFor: string | undefined;
  readonly provenance: Provenance | undefined;
}

/** Fills the details pane: title, the words it came from, turn and conversation, actions, the audit trail. */
export function fillDetails(details: HTMLElement, state: DetailsState, act: (action: GraphAction, statementId: string) => void): void {
  const { selectedId, provenanceFor, provenance } = state;
  if (!selectedId) {
    details.append(el('h2', { text: 'Where it came from' }), el('p', { className: 'hint', text: 'Select a node to see the words and the turn it came from.' }));
    return;
  }
  if (provenanceFor !== selectedId) {
    details.append(el('p', { className: 'hint', text: 'Reading…' }));
    return;
  }
  if (!provenance) {
    details.append(el('h2', { text: 'Gone' }), el('p', { className: 'hint', text: 'This is no longer in memory.' }));
    return;
  }
  const current = provenance;
  const title = el('h2', { id: 'details-title', text: current.title });
  const kind = el('p', { className: 'hint', text: [kindWords[current.kind], current.status].filter(Boolean).join(' · ') });
  details.append(title, kind);

  if (current.words !== undefined && current.words !== '') {
    details.append(el('h3', { text: current.wordsLabel ?? 'Words' }));
    const words = el('blockquote', { className: 'words', id: 'details-words', text: current.words });
    details.append(words);
  }

  const facts = el('dl', { className: 'facts' });
  const row = (label: string, value: string, id?: string): void => {
    facts.append(el('dt', { text: label }), el('dd', { text: value, id }));
  };
  if (current.turnId) row('Turn', current.turnId, 'details-turn');
  if (current.sessionId) row('Conversation', current.sessionId, 'details-session');
  if (current.statementId) row('Statement', current.statementId);
  for (const fact of current.facts) row(fact.label, formatValue(fact.value));
  if (facts.childElementCount > 0) details.append(facts);

  if (current.actions.length > 0 && current.statementId) {
    const statementId = current.statementId;
    const actions = el('div', { className: 'actions' });
    for (const action of current.actions) {
      const button = el('button', { className: action === 'forget' ? 'secondary' : '', text: actionWords[action] });
      button.type = 'button';
      button.dataset.action = action;
      button.addEventListener('click', () => act(action, statementId));
      actions.append(button);
    }
    details.append(actions);
  }

  if (current.history.length > 0) {
    details.append(el('h3', { text: 'Audit trail' }));
    const list = el('ol', { className: 'history', id: 'details-history' });
    for (const event of current.history) {
      const entry = el('li');
      entry.append(el('span', { className: 'when', text: formatValue(event.at) }), ` ${event.action}: `, event.reason);
      if (event.turnId) entry.append(el('span', { className: 'hint', text: ` (turn ${event.turnId})` }));
      list.append(entry);
    }
    details.append(list);
  }
}

/** ISO times in the local format; anything else as it is. */
export function formatValue(value: string): string {
  if (!/^\d{4}-\d\d-\d\dT/.test(value)) return value;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}


/** The header line: what the graph holds. */
export function countsText(current: MemoryGraph): string {
  const { facts, keys, behaviors, sessions, retired } = current.counts;
  const parts = [
    `${facts} confirmed ${facts === 1 ? 'fact' : 'facts'} under ${keys} ${keys === 1 ? 'key' : 'keys'}`,
    `${behaviors} approved ${behaviors === 1 ? 'behaviour' : 'behaviours'}`,
    `${sessions} ${sessions === 1 ? 'conversation' : 'conversations'}`,
  ];
  if (retired > 0) parts.push(`${retired} no longer believed`);
  return `${parts.join(' · ')}. Computed from memory on every read.`;
}

/** The parts of the page a render fills; `created` is true the first time, when the details pane is still empty. */
export interface PageFrame {
  readonly counts: HTMLElement;
  readonly error: HTMLElement;
  readonly scroller: HTMLElement;
  readonly details: HTMLElement;
  readonly created: boolean;
}

/** The page's frame, built once: a live update replaces the drawing and the details, never the frame. */
export function pageFrame(): PageFrame | undefined {
  const root = document.getElementById('root');
  if (!root) return undefined;
  const existing = {
    counts: document.getElementById('counts'),
    error: document.getElementById('error'),
    scroller: document.getElementById('canvas-scroll'),
    details: document.getElementById('details'),
  };
  if (existing.counts && existing.error && existing.scroller && existing.details) {
    return { counts: existing.counts, error: existing.error, scroller: existing.scroller, details: existing.details, created: false };
  }
  root.replaceChildren();
  root.removeAttribute('aria-busy');
  const header = el('header', { className: 'header' });
  const counts = el('p', { className: 'hint', id: 'counts' });
  header.append(
    el('h1', { text: 'What Engram believes about you' }),
    counts,
    el('p', { className: 'hint', text: 'Click a node, or use the arrow keys: Right opens, Left closes, Enter shows where it came from.' }),
  );
  const error = el('div', { id: 'error' });
  error.setAttribute('role', 'alert');
  error.hidden = true;
  const layout = el('div', { className: 'layout' });
  const scroller = el('div', { className: 'canvas-scroll', id: 'canvas-scroll' });
  const details = el('aside', { className: 'details', id: 'details' });
  details.setAttribute('aria-label', 'Where it came from');
  layout.append(scroller, details);
  root.append(header, error, layout);
  return { counts, error, scroller, details, created: true };
}
