// The context panel's grid rows and its "Retrieved memory" section: what reached the model, and by which path.
// Every cell is memory text: it goes into the page through textContent only.
import { el } from './dom';
import type { ContextReport } from './protocol';

export function row(cells: readonly string[], type?: 'header'): HTMLElement {
  const gridRow = el('vscode-data-grid-row');
  if (type) gridRow.setAttribute('row-type', type);
  cells.forEach((text, index) => {
    const cell = el('vscode-data-grid-cell', { text });
    cell.setAttribute('grid-column', String(index + 1));
    if (type) cell.setAttribute('cell-type', 'columnheader');
    gridRow.append(cell);
  });
  return gridRow;
}

/** "tool recall_conversation", or for another agent "claude-code over MCP: memory_search". */
function viaText(via: string): string {
  if (via === 'prompt') return 'prompt';
  const agent = /^mcp:(.*):([^:]+)$/.exec(via);
  if (agent) return `${agent[1]} over MCP: ${agent[2]}`;
  return via.replace(/^tool:/, 'tool ');
}

export function renderRetrieval(report: ContextReport): HTMLElement {
  const section = el('section', { id: 'retrieval' });
  const heading = el('h2', { text: 'Retrieved memory ' });
  // Not <vscode-badge>: its template binds a style attribute, which the CSP (rightly) refuses, noisily.
  heading.append(el('span', { className: 'count', id: 'retrieval-count', text: String(report.retrieval.length) }));
  section.append(heading);
  if (report.retrieval.length === 0) {
    section.append(el('p', { className: 'hint', text: 'No memory reached the model in this turn.' }));
    return section;
  }
  const grid = el('vscode-data-grid', { id: 'retrieval-grid' });
  grid.setAttribute('aria-label', 'Retrieved memory');
  grid.setAttribute('generate-header', 'none');
  grid.setAttribute('grid-template-columns', '7em minmax(12em, 3fr) minmax(8em, 1fr)');
  grid.append(row(['Kind', 'Memory', 'Via'], 'header'));
  for (const entry of report.retrieval) {
    const entryRow = row([entry.kind, entry.label, viaText(entry.via)]);
    entryRow.dataset.memoryId = entry.memoryId;
    grid.append(entryRow);
  }
  section.append(grid);
  return section;
}
