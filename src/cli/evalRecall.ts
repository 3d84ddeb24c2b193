import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateRecallCorpus, type RecallCorpus } from '../core/eval/recallCorpus';
import { runRecallEval, type RecallEngine, type RecallEvalReport } from '../core/eval/recallEval';
import { runScaleEval, type IndexedEngine, type ScalePoint } from '../core/eval/scaleEval';
import { recallConversation } from '../core/recall/conversationRecall';
import { searchTurnsBm25 } from '../core/recall/turnSearch';
import { UsageError } from './args';
import { loadNative, nativeEngine } from './nativeFts5';

export interface EvalRecallResult extends RecallEvalReport {
  /** The results as a printable table. */
  readonly table: string;
}

const engines: Record<string, RecallEngine> = {
  bm25: (db, q, k) => searchTurnsBm25(db, q, { k }),
  engram: (db, q, k) => recallConversation(db, q, { k }),
};

/**
 * Conversation recall quality on the generated, labelled corpus: the BM25 baseline beside Engram's recall
 * engine, as evidence recall@5, recall@10 and MRR.
 */
export async function evalRecallCommand(wasmPath: string, corpus?: RecallCorpus): Promise<EvalRecallResult> {
  const report = await runRecallEval({ wasmPath, engines, corpus });
  return { ...report, table: formatTable(report) };
}

export interface ScaleResult {
  readonly questions: number;
  readonly points: readonly ScalePoint[];
  readonly table: string;
}

/**
 * `eval-recall --scale N[,N…]`: recall@10 of the planted evidence under N newer distractor turns, Engram beside plain
 * BM25 and, where better-sqlite3 is installed (a development dependency), native FTS5.
 */
export async function evalRecallAtScale(wasmPath: string, sizes: readonly number[], chosen: RecallCorpus | undefined, log: (line: string) => void): Promise<ScaleResult> {
  const corpus = chosen ?? generateRecallCorpus();
  const Native = loadNative();
  const indexed: Record<string, IndexedEngine> = Native ? { fts5: nativeEngine(Native) } : {};
  if (!Native) log('better-sqlite3 is not installed: no native FTS5 column');
  const points = await runScaleEval({ wasmPath, sizes, engines, indexed, corpus, log });
  const names = Object.keys(points[0]?.recallAt10 ?? {});
  const header = ['N newer', 'turns', ...names.map((name) => `${name} R@10`), ...names.map((name) => `${name} ms`)];
  const rows = points.map((point) => [String(point.newer), String(point.turns), ...names.map((name) => point.recallAt10[name].toFixed(3)), ...names.map((name) => point.meanMs[name].toFixed(1))]);
  return { questions: corpus.questions.length, points, table: [header, ...rows].map((row) => row.map((cell) => cell.padStart(12)).join('')).join('\n') };
}

/** Reads `--corpus DIR`: turns.jsonl in the import format (with refs) and questions.jsonl (`{"id","query","evidence"}`). */
export function readCorpus(folder: string): RecallCorpus {
  const lines = (file: string): unknown[] =>
    readFileSync(join(folder, file), 'utf8')
      .split(/\r?\n/)
      .filter((line) => line.trim() !== '')
      .map((line, index) => {
        try {
          return JSON.parse(line) as unknown;
        } catch (error) {
          throw new UsageError(`${join(folder, file)} line ${index + 1}: not valid JSON (${(error as Error).message})`);
        }
      });
  const turns = lines('turns.jsonl').map((line, index) => {
    const turn = line as { session?: unknown; role?: unknown; text?: unknown; at?: unknown; ref?: unknown };
    if (typeof turn.session !== 'string' || (turn.role !== 'user' && turn.role !== 'assistant') || typeof turn.text !== 'string' || typeof turn.ref !== 'string') {
      throw new UsageError(`turns.jsonl line ${index + 1}: needs {"session", "role", "text", "ref"}`);
    }
    return { session: turn.session, role: turn.role as 'user' | 'assistant', text: turn.text, ref: turn.ref, at: typeof turn.at === 'string' ? new Date(turn.at).toISOString() : new Date(0).toISOString() };
  });
  const questions = lines('questions.jsonl').map((line, index) => {
    const question = line as { id?: unknown; query?: unknown; evidence?: unknown };
    if (typeof question.query !== 'string' || !Array.isArray(question.evidence)) throw new UsageError(`questions.jsonl line ${index + 1}: needs {"id", "query", "evidence"}`);
    return { id: String(question.id), query: question.query, evidence: question.evidence.map(String) };
  });
  return { turns, questions };
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
