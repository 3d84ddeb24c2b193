import type { ContextReport, RetrievalEntry } from '../context/contextReport';

/**
 * What memory shaped one reply, read from its report's retrieval entries: the confirmed facts, behaviours, summary
 * and earlier turns its prompt carried or its tools returned. Shown as one line under the reply, each item openable,
 * each fact with a one-click "Wrong".
 */
export interface MemoryReceipt {
  /** The user turn the reply answered: the report's turn id, for "open the context panel on this turn". */
  readonly turnId: string;
  readonly facts: readonly ReceiptItem[];
  readonly behaviours: readonly ReceiptItem[];
  readonly summary: boolean;
  readonly turns: readonly ReceiptItem[];
}

export interface ReceiptItem {
  readonly id: string;
  readonly label: string;
  /** "prompt", or the tool that returned it. */
  readonly via: string;
}

function unique(entries: readonly RetrievalEntry[], kind: RetrievalEntry['kind']): ReceiptItem[] {
  const seen = new Map<string, ReceiptItem>();
  for (const entry of entries) {
    if (entry.kind !== kind || seen.has(entry.memoryId)) continue;
    seen.set(entry.memoryId, { id: entry.memoryId, label: entry.label, via: entry.via === 'prompt' ? 'prompt' : entry.via.slice('tool:'.length) });
  }
  return [...seen.values()];
}

export function receiptOf(report: ContextReport): MemoryReceipt {
  return {
    turnId: report.turnId,
    facts: unique(report.retrieval, 'fact'),
    behaviours: unique(report.retrieval, 'behavior'),
    summary: report.retrieval.some((entry) => entry.kind === 'summary'),
    turns: unique(report.retrieval, 'turn'),
  };
}

export function isEmptyReceipt(receipt: MemoryReceipt): boolean {
  return receipt.facts.length === 0 && receipt.behaviours.length === 0 && !receipt.summary && receipt.turns.length === 0;
}

/** The receipt in plain words, for the CLI: "Memory used: employer = Calico, name = Dana; 1 behaviour; 2 earlier turns". */
export function receiptLine(receipt: MemoryReceipt): string {
  if (isEmptyReceipt(receipt)) return 'Memory used: none.';
  const parts = [
    receipt.facts.map((fact) => fact.label).join(', '),
    receipt.behaviours.length ? `${receipt.behaviours.length} behaviour${receipt.behaviours.length === 1 ? '' : 's'}` : '',
    receipt.summary ? 'the conversation summary' : '',
    receipt.turns.length ? `${receipt.turns.length} earlier turn${receipt.turns.length === 1 ? '' : 's'}` : '',
  ].filter((part) => part !== '');
  return `Memory used: ${parts.join('; ')}.`;
}
