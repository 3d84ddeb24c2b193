import type { Database } from 'sql.js';
import type { OperationKind } from '../store/operationRegistry';
import { selectAll, selectNumber } from '../store/rows';
import type { ContextReport, RetrievalEntry } from './contextReport';

/** A context report as journaled: block texts are left out (they are memory, kept only where they live). */
export interface ReportOp {
  readonly kind: 'contextReport';
  readonly id: string;
  readonly at: string;
  readonly report: ContextReport;
}

export function isReportOp(candidate: object): candidate is ReportOp {
  const value = candidate as Record<string, unknown>;
  const report = value.report as Partial<ContextReport> | undefined;
  return (
    value.kind === 'contextReport' &&
    typeof value.id === 'string' &&
    typeof value.at === 'string' &&
    !!report &&
    typeof report.turnId === 'string' &&
    typeof report.sessionId === 'string' &&
    Array.isArray(report.blocks) &&
    Array.isArray(report.retrieval)
  );
}

export function withoutTexts(report: ContextReport): ContextReport {
  return { ...report, blocks: report.blocks.map((block) => ({ ...block, text: '' })) };
}

export function applyReportOp(db: Database, op: ReportOp): boolean {
  if (selectNumber(db, 'SELECT COUNT(*) FROM context_reports WHERE id = ?', [op.id]) > 0) return false;
  const report = withoutTexts(op.report);
  db.run('INSERT INTO context_reports (id, turn_id, session_id, at, report) VALUES (?, ?, ?, ?, ?)', [
    op.id, report.turnId, report.sessionId, op.at, JSON.stringify(report),
  ]);
  const seen = new Set<string>();
  for (const entry of report.retrieval) {
    db.run('INSERT INTO retrieval_log (report_id, session_id, kind, memory_id, via) VALUES (?, ?, ?, ?, ?)', [
      op.id, report.sessionId, entry.kind, entry.memoryId, entry.via,
    ]);
    if (entry.kind === 'fact' && !seen.has(entry.memoryId)) {
      seen.add(entry.memoryId);
      db.run('UPDATE statements SET access_count = access_count + 1 WHERE id = ?', [entry.memoryId]);
    }
  }
  return true;
}

/** How the store checks and applies context reports (registered by src/core/domains.ts). */
export const reportOperation: OperationKind<ReportOp> = { kind: 'contextReport', validate: isReportOp, apply: applyReportOp };

export function reportsOfSession(db: Database, sessionId: string): ContextReport[] {
  return selectAll(db, 'SELECT report FROM context_reports WHERE session_id = ? ORDER BY at', [sessionId]).map((row) => JSON.parse(String(row.report)) as ContextReport);
}

export function recentReports(db: Database, limit: number): ContextReport[] {
  return selectAll(db, 'SELECT report FROM context_reports ORDER BY at DESC LIMIT ?', [limit]).map((row) => JSON.parse(String(row.report)) as ContextReport);
}

/** "Memories recording any use: X of N": confirmed facts that some prompt or tool has carried. */
export function memoriesUsed(db: Database): { used: number; of: number } {
  return {
    used: selectNumber(db, "SELECT COUNT(*) FROM statements WHERE status = 'confirmed' AND access_count > 0"),
    of: selectNumber(db, "SELECT COUNT(*) FROM statements WHERE status = 'confirmed'"),
  };
}

export type { RetrievalEntry };
