import type { Database } from 'sql.js';
import { asNumber, asOptionalString, asString, selectAll, selectNumber } from '../store/rows';
import type { Cardinality } from './allowlist';
import type { Tier } from './slotPatterns';

export type StatementStatus = 'proposed' | 'confirmed' | 'retired' | 'rejected';
/**
 * Where a statement came from: the chat (captured), the owner's own "Remember…", an import, or another agent's
 * proposal over MCP (never the owner's word: it only ever waits for review).
 */
export type StatementOrigin = 'chat' | 'remember' | 'import' | 'agent';

export interface StatementRecord {
  readonly id: string;
  readonly key: string;
  readonly value: string;
  readonly cardinality: Cardinality;
  readonly status: StatementStatus;
  readonly tier: Tier;
  readonly origin: StatementOrigin;
  readonly sourceTurnId?: string;
  readonly sourceSessionId?: string;
  /** The exact words it came from. */
  readonly sourceWords: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly askedInSession?: string;
  readonly tokens: number;
}

export interface StatementEvent {
  readonly id: string;
  readonly statementId: string;
  readonly at: string;
  readonly action: string;
  readonly statusAfter: StatementStatus;
  readonly reason: string;
  readonly turnId?: string;
}

const statuses = new Set(['proposed', 'confirmed', 'retired', 'rejected']);

function toStatement(row: Record<string, unknown>): StatementRecord {
  const status = String(row.status);
  if (!statuses.has(status)) throw new Error(`Unexpected statement status in the store: ${status}`);
  return {
    id: asString(row.id as string, 'id'),
    key: asString(row.key as string, 'key'),
    value: asString(row.value as string, 'value'),
    cardinality: row.cardinality === 'multi' ? 'multi' : 'single',
    status: status as StatementStatus,
    tier: row.tier === 'A' || row.tier === 'B' ? row.tier : 'C',
    origin: row.origin === 'remember' || row.origin === 'import' || row.origin === 'agent' ? row.origin : 'chat',
    sourceTurnId: asOptionalString(row.source_turn_id as string | null),
    sourceSessionId: asOptionalString(row.source_session_id as string | null),
    sourceWords: asString(row.source_words as string, 'source_words'),
    createdAt: asString(row.created_at as string, 'created_at'),
    updatedAt: asString(row.updated_at as string, 'updated_at'),
    askedInSession: asOptionalString(row.asked_in_session as string | null),
    tokens: asNumber(row.tokens as number, 'tokens'),
  };
}

export function findStatement(db: Database, id: string): StatementRecord | undefined {
  const row = selectAll(db, 'SELECT * FROM statements WHERE id = ?', [id])[0];
  return row ? toStatement(row) : undefined;
}

export function listStatements(db: Database, status?: StatementStatus): StatementRecord[] {
  const rows = status
    ? selectAll(db, 'SELECT * FROM statements WHERE status = ? ORDER BY key, updated_at DESC', [status])
    : selectAll(db, 'SELECT * FROM statements ORDER BY key, updated_at DESC');
  return rows.map(toStatement);
}

/** A live (proposed or confirmed) statement of this key and value, compared without case. */
export function findLive(db: Database, key: string, value: string): StatementRecord | undefined {
  const row = selectAll(
    db,
    `SELECT * FROM statements WHERE key = ? AND lower(value) = lower(?) AND status IN ('confirmed', 'proposed')
     ORDER BY status = 'confirmed' DESC LIMIT 1`,
    [key, value],
  )[0];
  return row ? toStatement(row) : undefined;
}

export function wasRejected(db: Database, key: string, value: string): boolean {
  return selectNumber(db, "SELECT COUNT(*) FROM statements WHERE key = ? AND lower(value) = lower(?) AND status = 'rejected'", [key, value]) > 0;
}

/** Whether capture has already produced or mentioned a statement from this turn. */
export function wasCaptured(db: Database, turnId: string): boolean {
  return (
    selectNumber(db, 'SELECT COUNT(*) FROM statement_mentions WHERE turn_id = ?', [turnId]) > 0 ||
    selectNumber(db, 'SELECT COUNT(*) FROM statements WHERE source_turn_id = ?', [turnId]) > 0
  );
}

export function eventsOf(db: Database, statementId: string): StatementEvent[] {
  return selectAll(db, 'SELECT * FROM statement_events WHERE statement_id = ? ORDER BY at, rowid', [statementId]).map((row) => ({
    id: String(row.id),
    statementId: String(row.statement_id),
    at: String(row.at),
    action: String(row.action),
    statusAfter: String(row.status_after) as StatementStatus,
    reason: String(row.reason),
    turnId: asOptionalString(row.turn_id),
  }));
}

export function mentionCount(db: Database, statementId: string): number {
  return selectNumber(db, 'SELECT COUNT(*) FROM statement_mentions WHERE statement_id = ?', [statementId]);
}

export function countByStatus(db: Database): Record<StatementStatus, number> {
  const counts: Record<StatementStatus, number> = { proposed: 0, confirmed: 0, retired: 0, rejected: 0 };
  for (const row of selectAll(db, 'SELECT status, COUNT(*) AS n FROM statements GROUP BY status')) {
    counts[String(row.status) as StatementStatus] = Number(row.n);
  }
  return counts;
}

export function questionAskedIn(db: Database, sessionId: string): boolean {
  return selectNumber(db, 'SELECT COUNT(*) FROM statements WHERE asked_in_session = ?', [sessionId]) > 0;
}

/** Statements confirmed by the most recent turn of a session that confirmed any: what "undo last learned" takes back. */
export function lastLearned(db: Database, sessionId?: string): StatementRecord[] {
  const filter = sessionId ? 'AND s.source_session_id = ?' : '';
  const params = sessionId ? [sessionId] : [];
  const latest = selectAll(
    db,
    `SELECT e.turn_id, e.at FROM statement_events e JOIN statements s ON s.id = e.statement_id
     WHERE e.action = 'confirmed' AND e.reason LIKE 'learned:%' AND s.status = 'confirmed' ${filter}
     ORDER BY e.at DESC, e.rowid DESC LIMIT 1`,
    params,
  )[0];
  if (!latest) return [];
  const batch = latest.turn_id === null ? ['at = ?', latest.at] : ['turn_id = ?', latest.turn_id];
  return selectAll(
    db,
    `SELECT s.* FROM statements s WHERE s.status = 'confirmed' AND s.id IN
       (SELECT statement_id FROM statement_events WHERE action = 'confirmed' AND reason LIKE 'learned:%' AND ${batch[0]})
     ORDER BY s.rowid`,
    [batch[1] as string],
  ).map(toStatement);
}
