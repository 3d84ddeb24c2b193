import type { Database } from 'sql.js';
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
  if (report.retrieval.length === 0) return true;
  // Every turn logs its whole profile: one prepared statement and one UPDATE, not two statements per entry.
  db.exec('SAVEPOINT retrieval_log');
  const insert = db.prepare('INSERT INTO retrieval_log (report_id, session_id, kind, memory_id, via) VALUES (?, ?, ?, ?, ?)');
  try {
    for (const entry of report.retrieval) insert.run([op.id, report.sessionId, entry.kind, entry.memoryId, entry.via]);
    const facts = [...new Set(report.retrieval.filter((entry) => entry.kind === 'fact').map((entry) => entry.memoryId))];
    if (facts.length) db.run('UPDATE statements SET access_count = access_count + 1 WHERE id IN (SELECT value FROM json_each(?))', [JSON.stringify(facts)]);
    db.exec('RELEASE retrieval_log');
  } catch (error) {
    db.exec('ROLLBACK TO retrieval_log; RELEASE retrieval_log');
    throw error;
  } finally {
    insert.free();
  }
  return true;
}

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
