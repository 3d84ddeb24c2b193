import type { Database } from 'sql.js';
import type { OperationKind } from '../store/operationRegistry';
import { runStatement, selectNumber } from '../store/rows';
import type { Cardinality } from './allowlist';
import type { Tier } from '../capture/candidate';
import { forgetStatement } from './statementForget';
import { applyImportedStatement, isImportedStatement, type ImportedStatement } from './statementImport';
import {
  findStatement,
  isCitation,
  isStatementOrigin,
  isStatementScope,
  mentionCount,
  type Citation,
  type StatementOrigin,
  type StatementScope,
  type StatementStatus,
} from './statementRepository';

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
      /** Absent: the owner (every op journaled before scopes existed). */
      readonly scope?: StatementScope;
      readonly citation?: Citation;
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
    }
  | {
      /** The owner looked at a fact whose cited lines changed and confirmed it against them as they are now. */
      readonly kind: 'statement';
      readonly action: 'cite';
      readonly id: string;
      readonly statementId: string;
      readonly at: string;
      readonly reason: string;
      /** Absent: the fact no longer rests on a file. */
      readonly citation?: Citation;
    }
  | {
      /** Removes the statement, its audit trail and every mention of its value from the store, leaving a tombstone. */
      readonly kind: 'statement';
      readonly action: 'forget';
      readonly id: string;
      readonly statementId: string;
      readonly at: string;
      /** Never the value: this line stays in the journal after the statement is gone. */
      readonly reason: string;
    }
  /** Restores a statement from the owner's backup, with its audit trail (statementImport.ts). */
  | ImportedStatement;

const actions = new Set(['propose', 'confirm', 'reject', 'retire', 'mention', 'ask', 'edit', 'forget', 'cite', 'import']);
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
      isStatementOrigin(value.origin) &&
      isString(value.words) &&
      typeof value.tokens === 'number' &&
      (value.scope === undefined || isStatementScope(value.scope)) &&
      (value.citation === undefined || isCitation(value.citation))
    );
  }
  if (value.action === 'edit') return isString(value.value) && typeof value.tokens === 'number';
  if (value.action === 'cite') return value.citation === undefined || isCitation(value.citation);
  if (value.action === 'import') return isImportedStatement(value);
  return true;
}

/** Mentions in this many separate user turns confirm a proposed statement. */
export const repetitionsToConfirm = 3;

function recordEvent(db: Database, id: string, statementId: string, at: string, action: string, statusAfter: StatementStatus, reason: string, turnId?: string): void {
  runStatement(db, 'INSERT INTO statement_events (id, statement_id, at, action, status_after, reason, turn_id) VALUES (?, ?, ?, ?, ?, ?, ?)', [
    id, statementId, at, action, statusAfter, reason, turnId ?? null,
  ]);
}

function setStatus(db: Database, statementId: string, status: StatementStatus, at: string): void {
  runStatement(db, 'UPDATE statements SET status = ?, updated_at = ? WHERE id = ?', [status, at, statementId]);
}

/** Confirms, and for a single-valued key retires the confirmed value it replaces, naming the turn. */
function confirm(db: Database, op: { id: string; statementId: string; at: string; reason: string; turnId?: string; supersede?: boolean }): void {
  const statement = findStatement(db, op.statementId);
  if (!statement || statement.status === 'confirmed') return;
  setStatus(db, op.statementId, 'confirmed', op.at);
  recordEvent(db, op.id, op.statementId, op.at, 'confirmed', 'confirmed', op.reason, op.turnId);
  if (statement.cardinality !== 'single' || op.supersede === false) return;
  // A project's value never retires the owner's (nor another project's): supersession stays inside a scope.
  const replaced = db.exec("SELECT id, value FROM statements WHERE key = ? AND scope = ? AND status = 'confirmed' AND id <> ?", [statement.key, statement.scope, statement.id]);
  for (const [otherId, otherValue] of replaced[0]?.values ?? []) {
    setStatus(db, String(otherId), 'retired', op.at);
    const where = op.turnId ? ` in turn ${op.turnId}` : '';
    recordEvent(db, `${op.id}:supersedes:${otherId}`, String(otherId), op.at, 'retired', 'retired',
      `superseded by ${statement.key} = ${statement.value}${where} (was ${String(otherValue)})`, op.turnId);
  }
}

export function applyStatementOp(db: Database, op: StatementOp): boolean {
  if (selectNumber(db, 'SELECT COUNT(*) FROM statement_events WHERE id = ?', [op.id]) > 0) return false;
  // Another window's older journal may still say something about a forgotten statement: it stays forgotten.
  if (op.action !== 'forget' && selectNumber(db, 'SELECT COUNT(*) FROM forgotten_statements WHERE statement_id = ?', [op.statementId]) > 0) return false;
  switch (op.action) {
    case 'propose': {
      if (findStatement(db, op.statementId)) return false;
      runStatement(db, 
        `INSERT INTO statements (id, key, value, cardinality, status, tier, origin, source_turn_id, source_session_id, source_words,
           created_at, updated_at, tokens, scope, citation) VALUES (?, ?, ?, ?, 'proposed', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [op.statementId, op.key, op.value, op.cardinality, op.tier, op.origin, op.turnId ?? null, op.sessionId ?? null, op.words, op.at, op.at, op.tokens,
          op.scope ?? 'owner', op.citation ? JSON.stringify(op.citation) : null],
      );
      runStatement(db, 'INSERT INTO statements_fts (docid, key, value) SELECT rowid, key, value FROM statements WHERE id = ?', [op.statementId]);
      recordEvent(db, op.id, op.statementId, op.at, 'proposed', 'proposed', op.reason, op.turnId);
      if (op.turnId) runStatement(db, 'INSERT OR IGNORE INTO statement_mentions (statement_id, turn_id) VALUES (?, ?)', [op.statementId, op.turnId]);
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
      runStatement(db, 'DELETE FROM statements_fts WHERE docid = (SELECT rowid FROM statements WHERE id = ?)', [op.statementId]);
      runStatement(db, 'UPDATE statements SET value = ?, tokens = ?, updated_at = ? WHERE id = ?', [op.value, op.tokens, op.at, op.statementId]);
      runStatement(db, 'INSERT INTO statements_fts (docid, key, value) SELECT rowid, key, value FROM statements WHERE id = ?', [op.statementId]);
      const status = findStatement(db, op.statementId)?.status ?? 'proposed';
      recordEvent(db, op.id, op.statementId, op.at, 'edited', status, op.reason);
      return true;
    }
    case 'mention': {
      if (op.turnId) runStatement(db, 'INSERT OR IGNORE INTO statement_mentions (statement_id, turn_id) VALUES (?, ?)', [op.statementId, op.turnId]);
      const statement = findStatement(db, op.statementId);
      recordEvent(db, op.id, op.statementId, op.at, 'mentioned', statement?.status ?? 'proposed', op.reason, op.turnId);
      if (statement?.status === 'proposed' && mentionCount(db, op.statementId) >= repetitionsToConfirm) {
        confirm(db, { id: `${op.id}:repeated`, statementId: op.statementId, at: op.at, turnId: op.turnId, supersede: op.supersede,
          reason: `learned: said in ${repetitionsToConfirm} separate turns` });
      }
      return true;
    }
    case 'forget':
      return forgetStatement(db, op.statementId, op.at);
    case 'cite': {
      runStatement(db, 'UPDATE statements SET citation = ?, updated_at = ? WHERE id = ?', [op.citation ? JSON.stringify(op.citation) : null, op.at, op.statementId]);
      recordEvent(db, op.id, op.statementId, op.at, 'cited', findStatement(db, op.statementId)?.status ?? 'proposed', op.reason);
      return true;
    }
    case 'import':
      return applyImportedStatement(db, op);
    case 'ask':
      runStatement(db, 'UPDATE statements SET asked_in_session = ? WHERE id = ?', [op.sessionId ?? null, op.statementId]);
      recordEvent(db, op.id, op.statementId, op.at, 'asked', findStatement(db, op.statementId)?.status ?? 'proposed', op.reason, op.turnId);
      return true;
  }
}

/** How the store checks and applies statement operations (registered by src/core/domains.ts). */
export const statementOperation: OperationKind<StatementOp> = { kind: 'statement', validate: isStatementOp, apply: applyStatementOp };
