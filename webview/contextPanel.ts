/**
 * The context panel's page: what went into one prompt, block by block, and how full the budget is.
 * Bundled by esbuild (IIFE, browser) into dist/webview/contextPanel.js, with panel.css beside it.
 *
 * Every string from a report is memory text or derived from it, so the DOM is built with createElement and
 * textContent only: nothing here ever parses a report string as HTML.
 */
import {
  provideVSCodeDesignSystem,
  vsCodeBadge,
  vsCodeButton,
  vsCodeDataGrid,
  vsCodeDataGridCell,
  vsCodeDataGridRow,
  vsCodeDivider,
  vsCodeDropdown,
  vsCodeOption,
  vsCodeProgressRing,
} from '@vscode/webview-ui-toolkit';
import { renderRetrieval, row } from './contextGrid';
import { el, vsCodeApi } from './dom';
import { isMessageToWebview, type ContextBlock, type ContextReport, type MessageToHost, type TurnSummary } from './protocol';
import './panel.css';

provideVSCodeDesignSystem().register(
  vsCodeBadge(),
  vsCodeButton(),
  vsCodeDataGrid(),
  vsCodeDataGridCell(),
  vsCodeDataGridRow(),
  vsCodeDivider(),
  vsCodeDropdown(),
  vsCodeOption(),
  vsCodeProgressRing(),
);

const vscode = vsCodeApi();

/** Characters of a block shown before "Show all": a 1 MB paste should not freeze the panel on expand. */
const SHOWN_CHARS = 20_000;

/** Blocks the owner opened; kept in the webview state so they stay open when the panel is hidden and shown. */
const expanded = new Set<string>(readExpanded());
const shownInFull = new Set<string>();
let compacting = false;

const numberFormat = new Intl.NumberFormat('en-US');
const count = (value: number): string => numberFormat.format(Math.round(value));
const percent = (fraction: number): string => `${Math.round(fraction * 100)} %`;

function post(message: MessageToHost): void {
  vscode.postMessage(message);
}

function render(report: ContextReport | undefined, turns: readonly TurnSummary[], selectedTurnId: string | undefined): void {
  const root = document.getElementById('root');
  if (!root) return;
  const focus = rememberFocus();
  root.replaceChildren();
  root.removeAttribute('aria-busy');
  root.append(renderError());
  if (!report) {
    root.append(el('h1', { text: 'Engram: Context' }));
    if (!errorText) {
      root.append(el('p', { id: 'empty', text: 'No answered turn yet. Ask @engram something in the chat: what went into its prompt shows here.' }));
    }
    if (turns.length > 0) root.append(renderTurnPicker(turns, selectedTurnId));
    return;
  }
  if (isAgentCall(report)) {
    // Another agent's call over MCP: no prompt, window or budget of ours, only what it asked and what it was handed.
    root.append(renderAgentHeader(report), renderTurnPicker(turns, selectedTurnId ?? report.turnId), el('vscode-divider'));
    root.append(renderBlocks(report.blocks), el('vscode-divider'), renderRetrieval(report));
    restoreFocus(focus);
    return;
  }
  root.append(renderHeader(report), renderTurnPicker(turns, selectedTurnId ?? report.turnId), el('vscode-divider'));
  root.append(renderBlocks(report.blocks), el('vscode-divider'), renderHealth(report), el('vscode-divider'), renderRetrieval(report));
  restoreFocus(focus);
}

/** The record of a call another agent made over MCP (vendor "mcp", see src/core/context/agentCalls.ts). */
function isAgentCall(report: ContextReport): boolean {
  return report.model.vendor === 'mcp' && report.sessionId.startsWith('mcp:');
}

function renderAgentHeader(report: ContextReport): HTMLElement {
  const header = el('header', { id: 'summary' });
  const title = el('h1');
  title.append('Memory used by ', el('span', { id: 'model-name', text: report.model.name }));
  const totals = el('p', { className: 'totals' });
  const total = el('span', { id: 'total-tokens', text: count(report.totalTokens) });
  total.dataset.tokens = String(report.totalTokens);
  totals.append(total, ' tokens handed back over MCP, on ', formatTime(report.at), '.');
  header.append(title, totals);
  return header;
}

function renderHeader(report: ContextReport): HTMLElement {
  const header = el('header', { id: 'summary' });
  const title = el('h1');
  title.append('Context for ', el('span', { id: 'model-name', text: report.model.name }));
  const totals = el('p', { className: 'totals' });
  const total = el('span', { id: 'total-tokens', text: count(report.totalTokens) });
  total.dataset.tokens = String(report.totalTokens);
  totals.append(
    total,
    ` tokens of a ${count(report.budget)}-token budget · window ${count(report.window)} · `,
    el('span', { id: 'fill-percent', text: percent(report.health.fill) }),
    ' full',
  );
  header.append(title, totals);
  if (report.windowWhy || report.systemDelivery) {
    const runtime = el('p', { className: 'runtime', id: 'runtime-window' });
    runtime.append(
      `Window: ${report.windowWhy ?? `${count(report.window)} tokens`}.`,
      report.systemDelivery ? ` Instructions and memory sent as ${report.systemDelivery === 'system message' ? 'a system message' : 'the first user message (this vendor has no system role in VS Code)'}.` : '',
    );
    header.append(runtime);
  }
  header.append(renderBudgetPlan(report));
  const check = renderRuntimeCheck(report);
  if (check) header.append(check);
  header.append(fillBar(report.health.fill));
  return header;
}

/** How the window was split: the reply's room, the tokenizer margin (and the correction learned), the budget. */
function renderBudgetPlan(report: ContextReport): HTMLElement {
  const plan = report.plan;
  const line = el('p', { className: 'runtime', id: 'budget-plan' });
  if (!plan) {
    line.textContent = `Budget ${count(report.budget)} of a ${count(report.window)}-token window.`;
    return line;
  }
  const correction = plan.correction > 1 ? ` (the model counts ${plan.correction.toFixed(2)}× Engram's estimate, learned from its own counts)` : '';
  line.textContent = `Window ${count(report.window)} = reply ${count(plan.replyReserve)} + margin ${count(plan.margin)}${correction} + budget ${count(report.budget)}, of which tool results may take ${count(plan.toolResults)}.`;
  return line;
}

/** The runtime's own count beside Engram's estimate; flagged when the model read more than the budget allowed for. */
function renderRuntimeCheck(report: ContextReport): HTMLElement | undefined {
  const runtime = report.runtime;
  if (!runtime) return undefined;
  const line = el('p', { className: runtime.flagged ? 'runtime flagged' : 'runtime', id: 'runtime-check' });
  line.dataset.flagged = String(runtime.flagged);
  line.textContent = `${runtime.flagged ? '⚠ Over budget by the model’s own count: ' : 'Model’s own count: '}${runtime.why}.`;
  return line;
}

function fillBar(fill: number): HTMLElement {
  const bar = el('div', { className: 'fill-bar', id: 'fill-bar' });
  bar.setAttribute('role', 'progressbar');
  bar.setAttribute('aria-label', 'Budget used');
  bar.setAttribute('aria-valuemin', '0');
  bar.setAttribute('aria-valuemax', '100');
  bar.setAttribute('aria-valuenow', String(Math.round(fill * 100)));
  const inner = el('div', { className: fill >= 0.9 ? 'fill warn' : 'fill' });
  // CSSOM writes are not inline styles as far as the CSP is concerned.
  inner.style.width = `${Math.min(100, Math.max(0, fill * 100))}%`;
  bar.append(inner);
  return bar;
}

function renderTurnPicker(turns: readonly TurnSummary[], selectedTurnId: string | undefined): HTMLElement {
  const wrapper = el('div', { className: 'turn-picker' });
  const label = el('label', { text: 'Turn' });
  label.setAttribute('for', 'turn-picker');
  const dropdown = el('vscode-dropdown', { id: 'turn-picker' }) as HTMLElement & { value: string };
  for (const turn of latestFirst(turns)) {
    const option = el('vscode-option', { text: turn.label });
    option.setAttribute('value', turn.turnId);
    option.title = formatTime(turn.at);
    if (turn.turnId === selectedTurnId) option.setAttribute('selected', '');
    dropdown.append(option);
  }
  dropdown.addEventListener('change', () => {
    if (dropdown.value && dropdown.value !== selectedTurnId) post({ type: 'selectTurn', turnId: dropdown.value });
  });
  wrapper.append(label, dropdown);
  return wrapper;
}

function renderBlocks(blocks: readonly ContextBlock[]): HTMLElement {
  const section = el('section', { id: 'blocks' });
  section.append(el('h2', { text: 'Blocks' }), el('p', { className: 'hint', text: 'Enter or click a row to see the text that went into the prompt.' }));
  const grid = el('vscode-data-grid', { id: 'blocks-grid' });
  grid.setAttribute('aria-label', 'Prompt blocks');
  grid.setAttribute('generate-header', 'none');
  grid.setAttribute('grid-template-columns', '5em minmax(8em, 2fr) 7em 10em minmax(10em, 3fr)');
  grid.append(row(['Layer', 'Block', 'State', 'Tokens', 'Why'], 'header'));
  for (const block of blocks) {
    const blockRow = row([block.layer, block.title, block.state, tokensText(block), block.why]);
    blockRow.classList.add('block', `state-${block.state}`);
    blockRow.dataset.blockId = block.id;
    blockRow.dataset.tokens = String(block.tokens);
    blockRow.dataset.state = block.state;
    blockRow.setAttribute('aria-expanded', String(expanded.has(block.id)));
    blockRow.title = 'Enter or click to show the text';
    const toggle = (): void => toggleBlock(block.id);
    blockRow.addEventListener('click', toggle);
    blockRow.addEventListener('keydown', (event) => {
      if ((event.key === 'Enter' || event.key === ' ') && !event.defaultPrevented) {
        event.preventDefault();
        toggle();
      }
    });
    grid.append(blockRow);
    if (expanded.has(block.id)) grid.append(detailRow(block));
  }
  section.append(grid);
  return section;
}

function tokensText(block: ContextBlock): string {
  if (block.state === 'truncated') return `${count(block.tokens)} of ${count(block.fullTokens)}`;
  if (block.state === 'absent') return block.fullTokens > 0 ? `0 (${count(block.fullTokens)})` : '0';
  return count(block.tokens);
}

function detailRow(block: ContextBlock): HTMLElement {
  const detail = el('vscode-data-grid-row', { className: 'detail' });
  detail.dataset.detailFor = block.id;
  const cell = el('vscode-data-grid-cell');
  cell.setAttribute('grid-column', '1 / -1');
  const full = shownInFull.has(block.id) || block.text.length <= SHOWN_CHARS;
  const pre = el('pre', { className: 'block-text', text: full ? block.text : block.text.slice(0, SHOWN_CHARS) });
  pre.tabIndex = 0;
  pre.setAttribute('aria-label', `Text of ${block.title}`);
  // Arrow keys scroll the text instead of moving the grid's focus.
  pre.addEventListener('keydown', (event) => {
    if (event.key.startsWith('Arrow')) event.stopPropagation();
  });
  if (block.text.length === 0) pre.textContent = block.state === 'absent' ? '(not in this prompt)' : '(no text recorded)';
  cell.append(pre);
  if (!full) {
    const more = el('p', { className: 'hint', text: `Showing ${count(SHOWN_CHARS)} of ${count(block.text.length)} characters. ` });
    const showAll = el('vscode-button', { text: 'Show all' });
    showAll.setAttribute('appearance', 'secondary');
    showAll.addEventListener('click', () => {
      shownInFull.add(block.id);
      pre.textContent = block.text;
      more.remove();
    });
    more.append(showAll);
    cell.append(more);
  }
  detail.append(cell);
  return detail;
}

function toggleBlock(id: string): void {
  const blockRow = document.querySelector<HTMLElement>(`vscode-data-grid-row.block[data-block-id="${CSS.escape(id)}"]`);
  if (!blockRow || !current?.report) return;
  const block = current.report.blocks.find((candidate) => candidate.id === id);
  if (!block) return;
  if (expanded.delete(id)) {
    const next = blockRow.nextElementSibling;
    if (next?.classList.contains('detail')) next.remove();
    blockRow.setAttribute('aria-expanded', 'false');
  } else {
    expanded.add(id);
    blockRow.after(detailRow(block));
    blockRow.setAttribute('aria-expanded', 'true');
  }
  vscode.setState({ expanded: [...expanded] });
}

function renderHealth(report: ContextReport): HTMLElement {
  const section = el('section', { id: 'health' });
  section.append(el('h2', { text: 'Context health' }));
  const fill = el('p');
  fill.append(el('span', { id: 'health-fill', text: percent(report.health.fill) }), ' of the budget is used.');
  const next = el('p');
  next.append('Dropped next as the conversation grows: ', el('span', { id: 'next-to-go', text: report.health.nextToGo || 'nothing' }));
  const actions = el('div', { className: 'actions' });
  const button = el('vscode-button', { id: 'compact-now', text: 'Compact now' }) as HTMLElement & { disabled: boolean };
  button.title = 'Summarise the older part of this conversation so it takes fewer tokens';
  button.disabled = compacting;
  button.addEventListener('click', () => {
    if (compacting) return;
    compacting = true;
    button.disabled = true;
    actions.append(el('vscode-progress-ring', { id: 'compacting' }));
    post({ type: 'compactNow' });
  });
  actions.append(button);
  if (compacting) actions.append(el('vscode-progress-ring', { id: 'compacting' }));
  section.append(fill, next, actions);
  return section;
}

let errorText: string | undefined;

function renderError(): HTMLElement {
  const box = el('div', { id: 'error', text: errorText ?? '' });
  box.setAttribute('role', 'alert');
  box.hidden = !errorText;
  return box;
}

function latestFirst(turns: readonly TurnSummary[]): TurnSummary[] {
  const time = (turn: TurnSummary): number => Date.parse(turn.at) || 0;
  return [...turns].sort((a, b) => time(b) - time(a));
}

function formatTime(at: string): string {
  const date = new Date(at);
  return Number.isNaN(date.getTime()) ? at : date.toLocaleString();
}

/** Which block row and column had the focus, so a live update does not throw the keyboard user out of the grid. */
function rememberFocus(): { blockId: string; column: number } | undefined {
  const cell = document.activeElement?.closest('vscode-data-grid-cell');
  const blockRow = cell?.closest<HTMLElement>('vscode-data-grid-row.block');
  if (!cell || !blockRow?.dataset.blockId) return undefined;
  return { blockId: blockRow.dataset.blockId, column: [...blockRow.children].indexOf(cell) };
}

function restoreFocus(focus: { blockId: string; column: number } | undefined): void {
  if (!focus) return;
  const blockRow = document.querySelector(`vscode-data-grid-row.block[data-block-id="${CSS.escape(focus.blockId)}"]`);
  (blockRow?.children[focus.column] as HTMLElement | undefined)?.focus();
}

function readExpanded(): string[] {
  const state = vscode.getState() as { expanded?: unknown } | undefined;
  return Array.isArray(state?.expanded) ? state.expanded.filter((id): id is string => typeof id === 'string') : [];
}

let current: { report: ContextReport | undefined; turns: readonly TurnSummary[]; selectedTurnId?: string } | undefined;

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = event.data;
  if (!isMessageToWebview(message)) {
    console.warn('engram context panel: ignored a malformed message');
    return;
  }
  if (message.type === 'error') {
    errorText = message.message;
    compacting = false;
  } else {
    errorText = undefined;
    compacting = false;
    current = message;
  }
  render(current?.report, current?.turns ?? [], current?.selectedTurnId);
});

post({ type: 'ready' });
