import type { Database } from 'sql.js';
import type { OperationKind } from '../store/operationRegistry';
import { asNumber, asOptionalString, runStatement, selectAll, selectNumber } from '../store/rows';
import { applyImportedBehavior, isImportedBehavior, type ImportedBehavior } from './behaviorImport';

/**
 * Behaviours (lessons): instructions the assistant follows, born only from evidence (a correction) and
 * approved by the owner before they reach the prompt. "It went fine" is not evidence.
 */
export type BehaviorStatus = 'proposed' | 'approved' | 'rejected' | 'retired';

export interface BehaviorRecord {
  readonly id: string;
  readonly text: string;
  readonly status: BehaviorStatus;
  /** What happened that taught it: the user's words and what they corrected. */
  readonly evidence: string;
  readonly evidenceTurnId?: string;
  readonly statementId?: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly tokens: number;
}

export type BehaviorOp =
  | {
      readonly kind: 'behavior';
      readonly action: 'propose';
      readonly id: string;
      readonly behaviorId: string;
      readonly at: string;
      readonly reason: string;
      readonly text: string;
      readonly evidence: string;
      readonly turnId?: string;
      readonly statementId?: string;
      readonly tokens: number;
    }
  | { readonly kind: 'behavior'; readonly action: 'approve' | 'reject' | 'retire'; readonly id: string; readonly behaviorId: string; readonly at: string; readonly reason: string }
  /** Restores a behaviour from the owner's backup, with its audit trail (behaviorImport.ts). */
  | ImportedBehavior;

export function isBehaviorOp(candidate: object): candidate is BehaviorOp {
  const op = candidate as Record<string, unknown>;
  if (op.kind !== 'behavior' || typeof op.id !== 'string' || typeof op.behaviorId !== 'string' || typeof op.at !== 'string' || typeof op.reason !== 'string') return false;
  if (op.action === 'propose') return typeof op.text === 'string' && typeof op.evidence === 'string' && typeof op.tokens === 'number';
  if (op.action === 'import') return isImportedBehavior(op);
  return op.action === 'approve' || op.action === 'reject' || op.action === 'retire';
}

export function applyBehaviorOp(db: Database, op: BehaviorOp): boolean {
  if (op.action === 'import') return applyImportedBehavior(db, op);
  if (selectNumber(db, 'SELECT COUNT(*) FROM behavior_events WHERE id = ?', [op.id]) > 0) return false;
  if (op.action === 'propose') {
    runStatement(db, 
      `INSERT OR IGNORE INTO behaviors (id, text, status, evidence, evidence_turn_id, statement_id, created_at, updated_at, tokens)
       VALUES (?, ?, 'proposed', ?, ?, ?, ?, ?, ?)`,
      [op.behaviorId, op.text, op.evidence, op.turnId ?? null, op.statementId ?? null, op.at, op.at, op.tokens],
    );
  } else {
    const status = op.action === 'approve' ? 'approved' : op.action === 'reject' ? 'rejected' : 'retired';
    runStatement(db, 'UPDATE behaviors SET status = ?, updated_at = ? WHERE id = ?', [status, op.at, op.behaviorId]);
  }
  runStatement(db, 'INSERT INTO behavior_events (id, behavior_id, at, action, reason) VALUES (?, ?, ?, ?, ?)', [op.id, op.behaviorId, op.at, op.action, op.reason]);
  return true;
}

/** How the store checks and applies behaviour operations (registered by src/core/domains.ts). */
export const behaviorOperation: OperationKind<BehaviorOp> = { kind: 'behavior', validate: isBehaviorOp, apply: applyBehaviorOp };

export function listBehaviors(db: Database, status?: BehaviorStatus): BehaviorRecord[] {
  const rows = status
    ? selectAll(db, 'SELECT * FROM behaviors WHERE status = ? ORDER BY updated_at DESC', [status])
    : selectAll(db, 'SELECT * FROM behaviors ORDER BY updated_at DESC');
  return rows.map((row) => ({
    id: String(row.id),
    text: String(row.text),
    status: String(row.status) as BehaviorStatus,
    evidence: String(row.evidence),
    evidenceTurnId: asOptionalString(row.evidence_turn_id),
    statementId: asOptionalString(row.statement_id),
    createdAt: String(row.created_at),
    updatedAt: String(row.updated_at),
    tokens: asNumber(row.tokens, 'tokens'),
  }));
}

export function countBehaviors(db: Database, status: BehaviorStatus): number {
  return selectNumber(db, 'SELECT COUNT(*) FROM behaviors WHERE status = ?', [status]);
}
