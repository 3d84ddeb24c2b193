import { readFileSync } from 'node:fs';
import { isAgentCall } from '../core/context/agentCalls';
import type { ContextReport } from '../core/context/contextReport';
import { isMemoryScope, type MemoryHit, type MemoryScope } from '../core/recall/memorySearch';
import type { EngramMemory } from '../core/turn/engramMemory';
import { UsageError } from './args';

/** A recall hit as the contract prints it. */
export interface RecallHitLine {
  readonly ref: string;
  readonly session: string;
  readonly role: 'user' | 'assistant';
  readonly text: string;
  readonly score: number;
}

export function recall(memory: EngramMemory, query: string, k: number, session?: string): RecallHitLine[] {
  return memory
    .recall(query, { k, sessionId: session })
    .map((hit) => ({ ref: hit.ref ?? hit.id, session: hit.session, role: hit.role, text: hit.text, score: hit.score }));
}

/** `recall --queries FILE.jsonl`: one `{"id","hits"}` line per `{"id","query"}` line, in order. */
export function recallBatch(memory: EngramMemory, file: string, k: number, session?: string): string[] {
  return readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line, index) => {
      let parsed: { id?: unknown; query?: unknown };
      try {
        parsed = JSON.parse(line) as { id?: unknown; query?: unknown };
      } catch (error) {
        throw new UsageError(`${file} line ${index + 1}: not valid JSON (${(error as Error).message})`);
      }
      if (typeof parsed.query !== 'string' || (typeof parsed.id !== 'string' && typeof parsed.id !== 'number')) {
        throw new UsageError(`${file} line ${index + 1}: needs {"id", "query"}`);
      }
      return JSON.stringify({ id: parsed.id, hits: recall(memory, parsed.query, k, session) });
    });
}

export function search(memory: EngramMemory, query: string, scope: string | undefined, k: number, project?: string): MemoryHit[] {
  const chosen: MemoryScope = scope === undefined ? 'all' : isMemoryScope(scope) ? scope : (() => {
    throw new UsageError('--scope must be facts, behaviors, summaries or all');
  })();
  return memory.searchMemory(query, chosen, k, project);
}

export function contextReports(memory: EngramMemory, session: string): ContextReport[] {
  return memory.reportsOfSession(session);
}

/** The block table of a report, as a person reads it in a terminal. */
export function blockTable(report: ContextReport): string {
  const rows = report.blocks.map((block) => [block.layer, block.title, block.state, String(block.tokens), block.why]);
  const header = ['layer', 'block', 'state', 'tokens', 'why'];
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]): string => cells.map((cell, column) => cell.padEnd(widths[column])).join('  ').trimEnd();
  return [
    isAgentCall(report)
      ? `call ${report.turnId} at ${report.at} by ${report.model.name}: ${report.totalTokens} tokens handed back`
      : `turn ${report.turnId} at ${report.at} on ${report.model.name}: ${report.totalTokens} tokens of a ${report.budget} budget (window ${report.window})`,
    line(header),
    ...rows.map(line),
  ].join('\n');
}
