import type { Database } from 'sql.js';
import type { OperationKind } from './operationRegistry';
import { runStatement, selectAll, selectNumber } from './rows';
import type { SessionSource } from './turnRepository';

/**
 * A conversation as a backup carries it, beside its turns: when it ran, its rolling summary and how far that summary
 * reaches, and whether it had cooled to that summary. The turns travel as ordinary turn operations first; this one
 * gives the session what turns cannot (a cooled conversation has no turns left, only its summary).
 */
export interface ImportSessionOp {
  readonly kind: 'importSession';
  readonly id: string;
  readonly sessionId: string;
  readonly source: SessionSource;
  readonly startedAt: string;
  readonly lastAt: string;
  readonly summary?: string;
  /** The last turn the summary covers, by id: seqs are renumbered where turns were forgotten on the other machine. */
  readonly summaryUptoTurnId?: string;
  /** The seq it reached there: used for a conversation cooled to its summary, which has no turns left to name. */
  readonly summaryUptoSeq?: number;
  readonly cooledAt?: string;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isOptionalString = (value: unknown): boolean => value === undefined || typeof value === 'string';

/**
 * Applies it: a conversation forgotten here stays forgotten; a new one is created as it was; a known one widens its
 * times and takes the summary only when it reaches further than the one here (the same summary twice changes nothing).
 */
export function applyImportSession(db: Database, op: ImportSessionOp): boolean {
  if (selectNumber(db, 'SELECT COUNT(*) FROM forgotten_sessions WHERE session_id = ?', [op.sessionId]) > 0) return false;
  const existing = selectAll(db, 'SELECT started_at, last_at, summary, summary_upto FROM sessions WHERE id = ?', [op.sessionId])[0];
  const turns = selectNumber(db, 'SELECT COUNT(*) FROM turns WHERE session_id = ?', [op.sessionId]);
  const uptoSeq = op.summaryUptoTurnId
    ? selectNumber(db, 'SELECT seq FROM turns WHERE id = ? AND session_id = ?', [op.summaryUptoTurnId, op.sessionId])
    : turns === 0 ? (op.summaryUptoSeq ?? 0) : 0;
  if (!existing) {
    runStatement(db, 'INSERT INTO sessions (id, source, started_at, last_at, summary, summary_upto, cooled_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      op.sessionId, op.source, op.startedAt, op.lastAt, op.summary ?? null, uptoSeq, turns === 0 && op.cooledAt ? op.cooledAt : null,
    ]);
    return true;
  }
  let changed = false;
  if (op.startedAt < String(existing.started_at) || op.lastAt > String(existing.last_at)) {
    runStatement(db, 'UPDATE sessions SET started_at = MIN(started_at, ?), last_at = MAX(last_at, ?) WHERE id = ?', [op.startedAt, op.lastAt, op.sessionId]);
    changed = true;
  }
  const hereSummary = typeof existing.summary === 'string' ? existing.summary : undefined;
  const reachesFurther = uptoSeq > Number(existing.summary_upto ?? 0);
  if (op.summary && op.summary !== hereSummary && (!hereSummary || reachesFurther)) {
    runStatement(db, 'UPDATE sessions SET summary = ?, summary_upto = MAX(summary_upto, ?) WHERE id = ?', [op.summary, uptoSeq, op.sessionId]);
    changed = true;
  }
  return changed;
}

export const importSessionOperation: OperationKind<ImportSessionOp> = {
  kind: 'importSession',
  validate: (op) =>
    isString(op.sessionId) &&
    (op.source === 'chat' || op.source === 'import') &&
    isString(op.startedAt) &&
    isString(op.lastAt) &&
    isOptionalString(op.summary) &&
    isOptionalString(op.summaryUptoTurnId) &&
    (op.summaryUptoSeq === undefined || typeof op.summaryUptoSeq === 'number') &&
    isOptionalString(op.cooledAt),
  apply: applyImportSession,
  keepsDeferredWork: true,
};
