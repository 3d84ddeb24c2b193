import { runRecallEval, type RecallEvalReport } from '../core/eval/recallEval';
import { recallConversation } from '../core/recall/conversationRecall';
import { searchTurnsBm25 } from '../core/recall/turnSearch';

export interface EvalRecallResult extends RecallEvalReport {
  /** The results as a printable table. */
  readonly table: string;
}

/**
 * Conversation recall quality on the generated, labelled corpus: the BM25 baseline beside Engram's recall
 * engine, as evidence recall@5, recall@10 and MRR.
 */
export async function evalRecallCommand(wasmPath: string): Promise<EvalRecallResult> {
  const report = await runRecallEval({
    wasmPath,
    engines: {
      bm25: (db, q, k) => searchTurnsBm25(db, q, { k }),
      engram: (db, q, k) => recallConversation(db, q, { k }),
    },
  });
  return { ...report, table: formatTable(report) };
}

export function formatTable(report: RecallEvalReport): string {
  const rows = Object.entries(report.results).map(([name, r]) => [name, r.recallAt5.toFixed(3), r.recallAt10.toFixed(3), r.mrr.toFixed(3)]);
  const header = ['engine', 'recall@5', 'recall@10', 'MRR'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]): string =>
    cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
  return [
    `${report.questions} questions over ${report.turns} turns in ${report.sessions} sessions (k = 10)`,
    line(header),
    ...rows.map(line),
  ].join('\n');
}

