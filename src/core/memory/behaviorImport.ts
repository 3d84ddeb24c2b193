import type { Database } from 'sql.js';
import { runStatement, selectAll } from '../store/rows';
import type { BehaviorRecord } from './behaviors';
import { isLater } from './statementImport';

/** One entry of a behaviour's audit trail: proposed, approved, rejected or retired, when and why. */
export interface BehaviorEvent {
  readonly id: string;
  readonly at: string;
  readonly action: string;
  readonly reason: string;
}

/**
 * A behaviour restored from the owner's backup as it was there, with its evidence and every event of its audit trail
 * under their own ids: an approved lesson stays approved, a rejected one is not proposed again.
 */
export type ImportedBehavior = {
  readonly kind: 'behavior';
  readonly action: 'import';
  readonly id: string;
  readonly behaviorId: string;
  readonly at: string;
  readonly reason: string;
  readonly record: Omit<BehaviorRecord, 'id'>;
  readonly events: readonly BehaviorEvent[];
};

const statuses = new Set(['proposed', 'approved', 'rejected', 'retired']);
const isString = (value: unknown): value is string => typeof value === 'string';
const isOptionalString = (value: unknown): boolean => value === undefined || typeof value === 'string';

export function isImportedBehavior(op: Record<string, unknown>): boolean {
  const record = op.record as Record<string, unknown> | undefined;
  if (!record || typeof record !== 'object') return false;
  const recordOk =
    isString(record.text) && statuses.has(String(record.status)) && isString(record.evidence) && isOptionalString(record.evidenceTurnId) &&
    isOptionalString(record.statementId) && isString(record.createdAt) && isString(record.updatedAt) && typeof record.tokens === 'number';
  const events = op.events;
  return recordOk && Array.isArray(events) &&
    events.every((event: Record<string, unknown>) => !!event && isString(event.id) && isString(event.at) && isString(event.action) && isString(event.reason));
}

/** Applies it as statementImport.ts does a statement: new rows as they were, known ones gain what they lack. Twice changes nothing. */
export function applyImportedBehavior(db: Database, op: ImportedBehavior): boolean {
  const here = selectAll(db, 'SELECT updated_at FROM behaviors WHERE id = ?', [op.behaviorId])[0];
  const r = op.record;
  let changed = false;
  if (!here || isLater(r.updatedAt, String(here.updated_at))) {
    runStatement(db,
      `INSERT INTO behaviors (id, text, status, evidence, evidence_turn_id, statement_id, created_at, updated_at, tokens) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET text = excluded.text, status = excluded.status, evidence = excluded.evidence,
         evidence_turn_id = excluded.evidence_turn_id, statement_id = excluded.statement_id, created_at = excluded.created_at,
         updated_at = excluded.updated_at, tokens = excluded.tokens`,
      [op.behaviorId, r.text, r.status, r.evidence, r.evidenceTurnId ?? null, r.statementId ?? null, r.createdAt, r.updatedAt, r.tokens]);
    changed = true;
  }
  for (const event of op.events) {
    runStatement(db, 'INSERT OR IGNORE INTO behavior_events (id, behavior_id, at, action, reason) VALUES (?, ?, ?, ?, ?)', [event.id, op.behaviorId, event.at, event.action, event.reason]);
    changed = db.getRowsModified() > 0 || changed;
  }
  return changed;
}

/** A behaviour's audit trail, oldest first. */
export function behaviorEventsOf(db: Database, behaviorId: string): BehaviorEvent[] {
  return selectAll(db, 'SELECT id, at, action, reason FROM behavior_events WHERE behavior_id = ? ORDER BY at, rowid', [behaviorId]).map((row) => ({
    id: String(row.id), at: String(row.at), action: String(row.action), reason: String(row.reason),
  }));
}
