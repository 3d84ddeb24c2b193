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

/**
 * Applies a report: counted as applied at once (a second apply of the same id changes nothing), written to its table
 * at the next quiet moment. A report is 13 KB with a full profile, and writing it (the row, its overflow pages, the
 * indexes) cost 0.2 ms of every turn's finish. The store journals it at once and settles it when idle, before an
 * export, and before applying any operation that might read or remove reports (operationRegistry.ts); every reader
 * here settles first. So nothing ever sees the table without it.
 */
export function applyReportOp(db: Database, op: ReportOp): boolean {
  let reports = pendingReports.get(db);
  if (reports?.has(op.id) || selectNumber(db, 'SELECT COUNT(*) FROM context_reports WHERE id = ?', [op.id]) > 0) return false;
  if (!reports) pendingReports.set(db, (reports = new Map()));
  reports.set(op.id, op);
  const facts = new Set(op.report.retrieval.filter((entry) => entry.kind === 'fact').map((entry) => entry.memoryId));
  if (facts.size) {
    let uses = pendingFactUses.get(db);
    if (!uses) pendingFactUses.set(db, (uses = new Map()));
    for (const id of facts) uses.set(id, (uses.get(id) ?? 0) + 1);
  }
  return true;
}

/** Reports applied and not yet written, per database, in the order they were applied. */
const pendingReports = new WeakMap<Database, Map<string, ReportOp>>();

function writeReport(db: Database, op: ReportOp): void {
  const report = withoutTexts(op.report);
  // The report goes in as UTF-8 bytes cast to text: the same TEXT value, but sql.js encodes a bound string char by
  // char in JavaScript (0.2 ms for a report), and Buffer.from does it natively. JSON.stringify leaves no lone
  // surrogate, so the bytes are exactly what binding the string would store.
  runStatement(db, 'INSERT INTO context_reports (id, turn_id, session_id, at, report) VALUES (?, ?, ?, ?, CAST(? AS TEXT))', [
    op.id, report.turnId, report.sessionId, op.at, Buffer.from(JSON.stringify(report), 'utf8'),
  ]);
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
}

/** Writes the pending reports and adds the pending fact uses: what this kind leaves for a quiet moment. */
export function settleReports(db: Database): void {
  const reports = pendingReports.get(db);
  if (reports) {
    // One at a time, each dropped from the queue once written: a failure leaves the rest for the next settle.
    for (const [id, op] of reports) {
      writeReport(db, op);
      reports.delete(id);
    }
    pendingReports.delete(db);
  }
  settleFactUses(db);
}

/**
 * Uses of facts not yet added to access_count. Every prompt carries the whole profile (a hundred facts is usual), and
 * updating a hundred rows cost half a millisecond of every turn; added up at a quiet moment, ten turns cost one update.
 */
const pendingFactUses = new WeakMap<Database, Map<string, number>>();

/** Adds the pending uses to access_count (part of settleReports). */
function settleFactUses(db: Database): void {
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
export const reportOperation: OperationKind<ReportOp> = { kind: 'contextReport', validate: isReportOp, apply: applyReportOp, settle: settleReports, keepsDeferredWork: true };

export function reportsOfSession(db: Database, sessionId: string): ContextReport[] {
  settleReports(db);
  return selectAll(db, 'SELECT report FROM context_reports WHERE session_id = ? ORDER BY at', [sessionId]).map((row) => JSON.parse(String(row.report)) as ContextReport);
}

/** The facts a turn's prompt carried or its tools returned: the turn's retrieval log, from its report. */
export function factsRetrievedFor(db: Database, turnId: string): string[] {
  settleReports(db);
  const reports = selectAll(db, 'SELECT report FROM context_reports WHERE turn_id = ?', [turnId]).map((row) => JSON.parse(String(row.report)) as ContextReport);
  return [...new Set(reports.flatMap((report) => report.retrieval.filter((entry) => entry.kind === 'fact').map((entry) => entry.memoryId)))];
}

export function recentReports(db: Database, limit: number): ContextReport[] {
  settleReports(db);
  return selectAll(db, 'SELECT report FROM context_reports ORDER BY at DESC LIMIT ?', [limit]).map((row) => JSON.parse(String(row.report)) as ContextReport);
}

/** "Memories recording any use: X of N": confirmed facts that some prompt or tool has carried. */
export function memoriesUsed(db: Database): { used: number; of: number } {
  settleReports(db);
  return {
    used: selectNumber(db, "SELECT COUNT(*) FROM statements WHERE status = 'confirmed' AND access_count > 0"),
    of: selectNumber(db, "SELECT COUNT(*) FROM statements WHERE status = 'confirmed'"),
  };
}

export type { RetrievalEntry };
