import type { Database } from 'sql.js';
import type { OperationKind } from '../store/operationRegistry';
import { selectNumber } from '../store/rows';
import type { Cardinality } from './allowlist';
import type { Tier } from './slotPatterns';
import { findStatement, mentionCount, type StatementOrigin, type StatementStatus } from './statementRepository';

/**
 * Changes to statements, as journaled operations. Every change leaves an event (the audit trail: what,
 * when, why, and the turn it came from); nothing is deleted by a retirement.
 */
export type StatementOp =
  | {
      readonly kind: 'statement';
      readonly action: 'propose';
      readonly id: string;
      readonly statementId: string;
      readonly at: string;
      readonly reason: string;
      readonly key: string;
      readonly value: string;
      readonly cardinality: Cardinality;
      readonly tier: Tier;
      readonly origin: StatementOrigin;
      readonly turnId?: string;
      readonly sessionId?: string;
      readonly words: string;
      readonly tokens: number;
    }
  | {
      readonly kind: 'statement';
      readonly action: 'confirm' | 'reject' | 'retire' | 'mention' | 'ask';
      readonly id: string;
      readonly statementId: string;
      readonly at: string;
      readonly reason: string;
      readonly turnId?: string;
      readonly sessionId?: string;
      /** false: confirm without retiring the slot's other value (the replay's policies without consolidation). */
      readonly supersede?: boolean;
    }
  | {
      readonly kind: 'statement';
      readonly action: 'edit';
      readonly id: string;
      readonly statementId: string;
      readonly at: string;
      readonly reason: string;
      readonly value: string;
      readonly tokens: number;
    };

const actions = new Set(['propose', 'confirm', 'reject', 'retire', 'mention', 'ask', 'edit']);
const isString = (value: unknown): value is string => typeof value === 'string';
const isOptionalString = (value: unknown): boolean => value === undefined || typeof value === 'string';

export function isStatementOp(value: Record<string, unknown>): value is StatementOp {
  if (value.kind !== 'statement' || !actions.has(String(value.action))) return false;
  if (!isString(value.id) || !isString(value.statementId) || !isString(value.at) || !isString(value.reason)) return false;
  if (!isOptionalString(value.turnId) || !isOptionalString(value.sessionId)) return false;
  if (value.action === 'propose') {
    return (
      isString(value.key) &&
      isString(value.value) &&
      (value.cardinality === 'single' || value.cardinality === 'multi') &&
      (value.tier === 'A' || value.tier === 'B' || value.tier === 'C') &&
      (value.origin === 'chat' || value.origin === 'remember' || value.origin === 'import') &&
      isString(value.words) &&
      typeof value.tokens === 'number'
    );
  }
  if (value.action === 'edit') return isString(value.value) && typeof value.tokens === 'number';
  return true;
}

/** Mentions in this many separate user turns confirm a proposed statement. */
export const repetitionsToConfirm = 3;

function recordEvent(db: Database, id: string, statementId: string, at: string, action: string, statusAfter: StatementStatus, reason: string, turnId?: string): void {
  db.run('INSERT INTO statement_events (id, statement_id, at, action, status_after, reason, turn_id) VALUES (?, ?, ?, ?, ?, ?, ?)', [
    id, statementId, at, action, statusAfter, reason, turnId ?? null,
  ]);
}

function setStatus(db: Database, statementId: string, status: StatementStatus, at: string): void {
  db.run('UPDATE statements SET status = ?, updated_at = ? WHERE id = ?', [status, at, statementId]);
}

/** Confirms, and for a single-valued key retires the confirmed value it replaces, naming the turn. */
function confirm(db: Database, op: { id: string; statementId: string; at: string; reason: string; turnId?: string; supersede?: boolean }): void {
  const statement = findStatement(db, op.statementId);
  if (!statement || statement.status === 'confirmed') return;
  setStatus(db, op.statementId, 'confirmed', op.at);
  recordEvent(db, op.id, op.statementId, op.at, 'confirmed', 'confirmed', op.reason, op.turnId);
  if (statement.cardinality !== 'single' || op.supersede === false) return;
  const replaced = db.exec("SELECT id, value FROM statements WHERE key = ? AND status = 'confirmed' AND id <> ?", [statement.key, statement.id]);
  for (const [otherId, otherValue] of replaced[0]?.values ?? []) {
    setStatus(db, String(otherId), 'retired', op.at);
    const where = op.turnId ? ` in turn ${op.turnId}` : '';
    recordEvent(db, `${op.id}:supersedes:${otherId}`, String(otherId), op.at, 'retired', 'retired',
      `superseded by ${statement.key} = ${statement.value}${where} (was ${String(otherValue)})`, op.turnId);
  }
}

export function applyStatementOp(db: Database, op: StatementOp): boolean {
  if (selectNumber(db, 'SELECT COUNT(*) FROM statement_events WHERE id = ?', [op.id]) > 0) return false;
  switch (op.action) {
    case 'propose': {
      if (findStatement(db, op.statementId)) return false;
      db.run(
        `INSERT INTO statements (id, key, value, cardinality, status, tier, origin, source_turn_id, source_session_id, source_words,
           created_at, updated_at, tokens) VALUES (?, ?, ?, ?, 'proposed', ?, ?, ?, ?, ?, ?, ?, ?)`,
        [op.statementId, op.key, op.value, op.cardinality, op.tier, op.origin, op.turnId ?? null, op.sessionId ?? null, op.words, op.at, op.at, op.tokens],
      );
      db.run('INSERT INTO statements_fts (docid, key, value) SELECT rowid, key, value FROM statements WHERE id = ?', [op.statementId]);
      recordEvent(db, op.id, op.statementId, op.at, 'proposed', 'proposed', op.reason, op.turnId);
      if (op.turnId) db.run('INSERT OR IGNORE INTO statement_mentions (statement_id, turn_id) VALUES (?, ?)', [op.statementId, op.turnId]);
      return true;
    }
    case 'confirm':
      confirm(db, op);
      return true;
    case 'reject':
    case 'retire': {
      const status = op.action === 'reject' ? 'rejected' : 'retired';
      setStatus(db, op.statementId, status, op.at);
      recordEvent(db, op.id, op.statementId, op.at, status, status, op.reason, op.turnId);
      return true;
    }
    case 'edit': {
      db.run('DELETE FROM statements_fts WHERE docid = (SELECT rowid FROM statements WHERE id = ?)', [op.statementId]);
      db.run('UPDATE statements SET value = ?, tokens = ?, updated_at = ? WHERE id = ?', [op.value, op.tokens, op.at, op.statementId]);
      db.run('INSERT INTO statements_fts (docid, key, value) SELECT rowid, key, value FROM statements WHERE id = ?', [op.statementId]);
      const status = findStatement(db, op.statementId)?.status ?? 'proposed';
      recordEvent(db, op.id, op.statementId, op.at, 'edited', status, op.reason);
      return true;
    }
    case 'mention': {
      if (op.turnId) db.run('INSERT OR IGNORE INTO statement_mentions (statement_id, turn_id) VALUES (?, ?)', [op.statementId, op.turnId]);
      const statement = findStatement(db, op.statementId);
      recordEvent(db, op.id, op.statementId, op.at, 'mentioned', statement?.status ?? 'proposed', op.reason, op.turnId);
      if (statement?.status === 'proposed' && mentionCount(db, op.statementId) >= repetitionsToConfirm) {
        confirm(db, { id: `${op.id}:repeated`, statementId: op.statementId, at: op.at, turnId: op.turnId, supersede: op.supersede,
          reason: `learned: said in ${repetitionsToConfirm} separate turns` });
      }
      return true;
    }
    case 'ask':
      db.run('UPDATE statements SET asked_in_session = ? WHERE id = ?', [op.sessionId ?? null, op.statementId]);
      recordEvent(db, op.id, op.statementId, op.at, 'asked', findStatement(db, op.statementId)?.status ?? 'proposed', op.reason, op.turnId);
      return true;
  }
}

/** How the store checks and applies statement operations (registered by src/core/domains.ts). */
export const statementOperation: OperationKind<StatementOp> = { kind: 'statement', validate: isStatementOp, apply: applyStatementOp };
