import type { Database } from 'sql.js';
import { applyBehaviorOp, isBehaviorOp, type BehaviorOp } from '../memory/behaviors';
import { applyReportOp, isReportOp, type ReportOp } from '../context/reportRepository';
import { applyStatementOp, isStatementOp, type StatementOp } from '../memory/statementOps';
import { coolSession, forgetSession, setSessionSummary } from './sessionRepository';
import { insertTurn, isTurnRole, type NewTurn } from './turnRepository';

/**
 * Every change to the store is an operation: applied to the in-memory database and appended to the
 * writer's journal. Each carries a unique id and applying it twice changes nothing, so journals can be
 * replayed at load, read by other windows, and folded into snapshots without bookkeeping of what was seen.
 */
export type StoreOp = TurnOp | ForgetSessionsOp | CoolSessionsOp | SummaryOp | StatementOp | ReportOp | BehaviorOp;

export interface TurnOp extends NewTurn {
  readonly kind: 'turn';
}

export interface ForgetSessionsOp {
  readonly kind: 'forgetSessions';
  readonly id: string;
  readonly sessionIds: readonly string[];
  readonly at: string;
}

export interface CoolSessionsOp {
  readonly kind: 'coolSessions';
  readonly id: string;
  readonly sessionIds: readonly string[];
  readonly at: string;
}

export interface SummaryOp {
  readonly kind: 'summary';
  readonly id: string;
  readonly sessionId: string;
  readonly summary: string;
  readonly at: string;
  /** The seq of the last turn the summary covers. */
  readonly uptoSeq?: number;
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isStringList = (value: unknown): value is string[] => Array.isArray(value) && value.every(isString);

/** A journal line is untrusted input (another process, an older version, a torn write): check it. */
export function isStoreOp(value: unknown): value is StoreOp {
  if (!value || typeof value !== 'object') return false;
  const op = value as Record<string, unknown>;
  if (!isString(op.id)) return false;
  switch (op.kind) {
    case 'turn':
      return (
        isString(op.sessionId) &&
        isTurnRole(op.role) &&
        isString(op.text) &&
        isString(op.at) &&
        (op.ref === undefined || isString(op.ref)) &&
        typeof op.tokens === 'number' &&
        (op.source === 'chat' || op.source === 'import')
      );
    case 'forgetSessions':
    case 'coolSessions':
      return isStringList(op.sessionIds) && isString(op.at);
    case 'summary':
      return isString(op.sessionId) && isString(op.summary) && isString(op.at) && (op.uptoSeq === undefined || typeof op.uptoSeq === 'number');
    case 'statement':
      return isStatementOp(op);
    case 'contextReport':
      return isReportOp(op);
    case 'behavior':
      return isBehaviorOp(op);
    default:
      return false;
  }
}

/**
 * Applies one operation; returns false when it changed nothing (already applied, or nothing to do).
 * `deferIndex` receives the rows of new turns whose search indexing the caller will batch later.
 */
export function applyOp(db: Database, op: StoreOp, deferIndex?: (rowid: number) => void): boolean {
  switch (op.kind) {
    case 'turn':
      return insertTurn(db, op, deferIndex);
    case 'forgetSessions':
      return op.sessionIds.reduce((changed, sessionId) => forgetSession(db, sessionId, op.at) > 0 || changed, false);
    case 'coolSessions':
      return op.sessionIds.reduce((changed, sessionId) => coolSession(db, sessionId, op.at) > 0 || changed, false);
    case 'summary':
      return setSessionSummary(db, op.sessionId, op.summary, op.uptoSeq);
    case 'statement':
      return applyStatementOp(db, op);
    case 'contextReport':
      return applyReportOp(db, op);
    case 'behavior':
      return applyBehaviorOp(db, op);
  }
}
