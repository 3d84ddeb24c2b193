import type { Database, SqlValue } from 'sql.js';
import { runStatement, selectAll } from '../store/rows';
import {
  findStatement,
  isCitation,
  isStatementOrigin,
  isStatementScope,
  type StatementEvent,
  type StatementRecord,
} from './statementRepository';

/**
 * A statement restored from the owner's backup as it was there: its row (status, tier, origin, evidence, citation),
 * every event of its audit trail with its own id, and the turns that mentioned it. Nothing is re-decided on the way in:
 * confirmed stays confirmed, retired stays retired with its history, rejected stays rejected.
 */
export type ImportedStatement = {
  readonly kind: 'statement';
  readonly action: 'import';
  readonly id: string;
  readonly statementId: string;
  readonly at: string;
  readonly reason: string;
  readonly record: Omit<StatementRecord, 'id'>;
  readonly events: readonly Omit<StatementEvent, 'statementId'>[];
  readonly mentions: readonly string[];
};

/**
 * Whether time `a` is after time `b`, as instants: two machines may write the same moment two ways (`Z`, an offset,
 * with or without milliseconds). Text that is no time compares as text.
 */
export function isLater(a: string, b: string): boolean {
  const [x, y] = [Date.parse(a), Date.parse(b)];
  return Number.isNaN(x) || Number.isNaN(y) ? a > b : x > y;
}

const statuses = new Set(['proposed', 'confirmed', 'retired', 'rejected']);
const isString = (value: unknown): value is string => typeof value === 'string';
const isOptionalString = (value: unknown): boolean => value === undefined || typeof value === 'string';

/** The shape check of a journal line of this action (the other actions are checked in statementOps.ts). */
export function isImportedStatement(op: Record<string, unknown>): boolean {
  const record = op.record as Record<string, unknown> | undefined;
  if (!record || typeof record !== 'object') return false;
  const recordOk =
    isString(record.key) && isString(record.value) && (record.cardinality === 'single' || record.cardinality === 'multi') &&
    statuses.has(String(record.status)) && (record.tier === 'A' || record.tier === 'B' || record.tier === 'C') &&
    isStatementOrigin(record.origin) && isString(record.sourceWords) && isString(record.createdAt) && isString(record.updatedAt) &&
    isOptionalString(record.sourceTurnId) && isOptionalString(record.sourceSessionId) && isOptionalString(record.askedInSession) &&
    typeof record.tokens === 'number' && isStatementScope(record.scope) && (record.citation === undefined || isCitation(record.citation));
  const events = op.events;
  const eventsOk = Array.isArray(events) && events.every((event: Record<string, unknown>) =>
    !!event && isString(event.id) && isString(event.at) && isString(event.action) && statuses.has(String(event.statusAfter)) &&
    isString(event.reason) && isOptionalString(event.turnId));
  return recordOk && eventsOk && Array.isArray(op.mentions) && op.mentions.every(isString);
}

function rowValues(id: string, record: ImportedStatement['record']): SqlValue[] {
  return [
    record.key, record.value, record.cardinality, record.status, record.tier, record.origin, record.sourceTurnId ?? null,
    record.sourceSessionId ?? null, record.sourceWords, record.createdAt, record.updatedAt, record.askedInSession ?? null, record.tokens,
    record.scope, record.citation ? JSON.stringify(record.citation) : null, id,
  ];
}

/**
 * Applies it. A statement new here is inserted as it was; one already here (an earlier import of the same backup, or a
 * statement that went back and forth between machines) gains the events it lacks, and takes the backup's row only when
 * that row changed later than this one. Applying it twice changes nothing.
 */
export function applyImportedStatement(db: Database, op: ImportedStatement): boolean {
  const existing = findStatement(db, op.statementId);
  let changed = false;
  if (!existing) {
    runStatement(db,
      `INSERT INTO statements (key, value, cardinality, status, tier, origin, source_turn_id, source_session_id, source_words, created_at,
         updated_at, asked_in_session, tokens, scope, citation, id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      rowValues(op.statementId, op.record));
    runStatement(db, 'INSERT INTO statements_fts (docid, key, value) SELECT rowid, key, value FROM statements WHERE id = ?', [op.statementId]);
    changed = true;
  } else if (isLater(op.record.updatedAt, existing.updatedAt)) {
    runStatement(db, 'DELETE FROM statements_fts WHERE docid = (SELECT rowid FROM statements WHERE id = ?)', [op.statementId]);
    runStatement(db,
      `UPDATE statements SET key = ?, value = ?, cardinality = ?, status = ?, tier = ?, origin = ?, source_turn_id = ?, source_session_id = ?,
         source_words = ?, created_at = ?, updated_at = ?, asked_in_session = ?, tokens = ?, scope = ?, citation = ? WHERE id = ?`,
      rowValues(op.statementId, op.record));
    runStatement(db, 'INSERT INTO statements_fts (docid, key, value) SELECT rowid, key, value FROM statements WHERE id = ?', [op.statementId]);
    changed = true;
  }
  for (const event of op.events) {
    runStatement(db, 'INSERT OR IGNORE INTO statement_events (id, statement_id, at, action, status_after, reason, turn_id) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      event.id, op.statementId, event.at, event.action, event.statusAfter, event.reason, event.turnId ?? null,
    ]);
    changed = db.getRowsModified() > 0 || changed;
  }
  for (const turnId of op.mentions) {
    runStatement(db, 'INSERT OR IGNORE INTO statement_mentions (statement_id, turn_id) VALUES (?, ?)', [op.statementId, turnId]);
    changed = db.getRowsModified() > 0 || changed;
  }
  return changed;
}

/** The turns that mentioned a statement (what counts towards confirmation by repetition). */
export function mentionsOf(db: Database, statementId: string): string[] {
  return selectAll(db, 'SELECT turn_id FROM statement_mentions WHERE statement_id = ? ORDER BY turn_id', [statementId]).map((row) => String(row.turn_id));
}
