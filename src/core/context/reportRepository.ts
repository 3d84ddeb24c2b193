import type { Database } from 'sql.js';
import type { OperationKind } from '../store/operationRegistry';
import { runStatement, selectAll, selectNumber } from '../store/rows';
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
  // The report (13 KB with a full profile) goes in as UTF-8 bytes cast to text: the same TEXT value, but sql.js
  // encodes a bound string char by char in JavaScript (0.2 ms for a report), and Buffer.from does it natively.
  // JSON.stringify leaves no lone surrogate, so the bytes are exactly what binding the string would store.
  runStatement(db, 'INSERT INTO context_reports (id, turn_id, session_id, at, report) VALUES (?, ?, ?, ?, CAST(? AS TEXT))', [
    op.id, report.turnId, report.sessionId, op.at, Buffer.from(JSON.stringify(report), 'utf8'),
  ]);
  if (report.retrieval.length === 0) return true;
  // The report keeps every entry (what the prompt carried and what tools returned). The table also gets a row per
  // memory a tool fetched, for questions across reports; the profile injected in every prompt (a hundred facts is
  // usual) stays in the report alone, so a turn costs one row per fetched memory, not a hundred.
  const fetched = report.retrieval.filter((entry) => entry.via !== 'prompt').map((entry) => [entry.kind, entry.memoryId, entry.via]);
  if (fetched.length) {
    runStatement(db, 
      `INSERT INTO retrieval_log (report_id, session_id, kind, memory_id, via)
       SELECT ?, ?, json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(?)`,
      [op.id, report.sessionId, JSON.stringify(fetched)],
    );
  }
  const facts = new Set(report.retrieval.filter((entry) => entry.kind === 'fact').map((entry) => entry.memoryId));
  if (facts.size) {
    let uses = pendingFactUses.get(db);
    if (!uses) pendingFactUses.set(db, (uses = new Map()));
    for (const id of facts) uses.set(id, (uses.get(id) ?? 0) + 1);
  }
  return true;
}

/**
 * Uses of facts not yet added to access_count. Every prompt carries the whole profile (a hundred facts is usual), and
 * updating a hundred rows cost half a millisecond of every turn; added up at a quiet moment, ten turns cost one update.
 */
const pendingFactUses = new WeakMap<Database, Map<string, number>>();

/** Adds the pending uses to access_count (the store runs it when idle and before an export). */
export function settleFactUses(db: Database): void {
  const uses = pendingFactUses.get(db);
  if (!uses || uses.size === 0) return;
  pendingFactUses.delete(db);
  const byCount = new Map<number, string[]>();
  for (const [id, count] of uses) byCount.set(count, [...(byCount.get(count) ?? []), id]);
  for (const [count, ids] of byCount) {
    runStatement(db, 'UPDATE statements SET access_count = access_count + ? WHERE id IN (SELECT value FROM json_each(?))', [count, JSON.stringify(ids)]);
  }
}

/** How the store checks and applies context reports (registered by src/core/domains.ts). */
export const reportOperation: OperationKind<ReportOp> = { kind: 'contextReport', validate: isReportOp, apply: applyReportOp, settle: settleFactUses };

export function reportsOfSession(db: Database, sessionId: string): ContextReport[] {
  return selectAll(db, 'SELECT report FROM context_reports WHERE session_id = ? ORDER BY at', [sessionId]).map((row) => JSON.parse(String(row.report)) as ContextReport);
}

/** The facts a turn's prompt carried or its tools returned: the turn's retrieval log, from its report. */
export function factsRetrievedFor(db: Database, turnId: string): string[] {
  const reports = selectAll(db, 'SELECT report FROM context_reports WHERE turn_id = ?', [turnId]).map((row) => JSON.parse(String(row.report)) as ContextReport);
  return [...new Set(reports.flatMap((report) => report.retrieval.filter((entry) => entry.kind === 'fact').map((entry) => entry.memoryId)))];
}

export function recentReports(db: Database, limit: number): ContextReport[] {
  return selectAll(db, 'SELECT report FROM context_reports ORDER BY at DESC LIMIT ?', [limit]).map((row) => JSON.parse(String(row.report)) as ContextReport);
}

/** "Memories recording any use: X of N": confirmed facts that some prompt or tool has carried. */
export function memoriesUsed(db: Database): { used: number; of: number } {
  settleFactUses(db);
  return {
    used: selectNumber(db, "SELECT COUNT(*) FROM statements WHERE status = 'confirmed' AND access_count > 0"),
    of: selectNumber(db, "SELECT COUNT(*) FROM statements WHERE status = 'confirmed'"),
  };
}

export type { RetrievalEntry };
