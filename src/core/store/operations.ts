import type { Database } from 'sql.js';
import { insertTurn, isTurnRole, type NewTurn } from './turnRepository';

/**
 * Every change to the store is an operation: applied to the in-memory database and appended to the
 * writer's journal. Each carries a unique id and applying it twice changes nothing, so journals can be
 * replayed at load, read by other windows, and folded into snapshots without bookkeeping of what was seen.
 */
export type StoreOp = TurnOp;

export interface TurnOp extends NewTurn {
  readonly kind: 'turn';
}

/** A journal line is untrusted input (another process, an older version, a torn write): check it. */
export function isStoreOp(value: unknown): value is StoreOp {
  if (!value || typeof value !== 'object') return false;
  const op = value as Record<string, unknown>;
  switch (op.kind) {
    case 'turn':
      return (
        typeof op.id === 'string' &&
        typeof op.sessionId === 'string' &&
        isTurnRole(op.role) &&
        typeof op.text === 'string' &&
        typeof op.at === 'string' &&
        (op.ref === undefined || typeof op.ref === 'string') &&
        typeof op.tokens === 'number' &&
        (op.source === 'chat' || op.source === 'import')
      );
    default:
      return false;
  }
}

/** Applies one operation; returns false when it had already been applied. */
export function applyOp(db: Database, op: StoreOp): boolean {
  switch (op.kind) {
    case 'turn':
      return insertTurn(db, op);
  }
}
