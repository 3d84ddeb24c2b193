import { registerOperationKind, type OperationKind } from './operationRegistry';
import { importSessionOperation } from './sessionImport';
import { coolSession, forgetSession, forgetTurns, setSessionSummary } from './sessionRepository';
import { insertTurn, isTurnRole, type NewTurn } from './turnRepository';

export { applyOp, isStoreOp, settleDeferred, type StoreOp } from './operationRegistry';

/** The store's own operations: conversation turns, rolling summaries, forgetting and retention. */
export interface TurnOp extends NewTurn {
  readonly kind: 'turn';
}

export interface ForgetSessionsOp {
  readonly kind: 'forgetSessions';
  readonly id: string;
  readonly sessionIds: readonly string[];
  readonly at: string;
}

export interface ForgetTurnsOp {
  readonly kind: 'forgetTurns';
  readonly id: string;
  readonly turnIds: readonly string[];
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

const turnOperation: OperationKind<TurnOp> = {
  kind: 'turn',
  validate: (op) =>
    isString(op.sessionId) &&
    isTurnRole(op.role) &&
    isString(op.text) &&
    isString(op.at) &&
    (op.ref === undefined || isString(op.ref)) &&
    typeof op.tokens === 'number' &&
    (op.source === 'chat' || op.source === 'import'),
  apply: (db, op, deferIndex) => insertTurn(db, op, deferIndex) !== undefined,
  keepsDeferredWork: true,
};

const forgetOperation: OperationKind<ForgetSessionsOp> = {
  kind: 'forgetSessions',
  validate: (op) => isStringList(op.sessionIds) && isString(op.at),
  apply: (db, op) => op.sessionIds.reduce((changed, sessionId) => forgetSession(db, sessionId, op.at) > 0 || changed, false),
  removesText: true,
};

const forgetTurnsOperation: OperationKind<ForgetTurnsOp> = {
  kind: 'forgetTurns',
  validate: (op) => isStringList(op.turnIds) && isString(op.at),
  apply: (db, op) => forgetTurns(db, op.turnIds, op.at) > 0,
  removesText: true,
};

const coolOperation: OperationKind<CoolSessionsOp> = {
  kind: 'coolSessions',
  validate: (op) => isStringList(op.sessionIds) && isString(op.at),
  apply: (db, op) => op.sessionIds.reduce((changed, sessionId) => coolSession(db, sessionId, op.at) > 0 || changed, false),
  removesText: true,
};

const summaryOperation: OperationKind<SummaryOp> = {
  kind: 'summary',
  validate: (op) =>
    isString(op.sessionId) && isString(op.summary) && isString(op.at) && (op.uptoSeq === undefined || typeof op.uptoSeq === 'number'),
  apply: (db, op) => setSessionSummary(db, op.sessionId, op.summary, op.uptoSeq),
  keepsDeferredWork: true,
};

// The store's own kinds are there whenever the store is: no journal is read before this module loads.
registerOperationKind(turnOperation);
registerOperationKind(forgetOperation);
registerOperationKind(forgetTurnsOperation);
registerOperationKind(coolOperation);
registerOperationKind(summaryOperation);
registerOperationKind(importSessionOperation);
