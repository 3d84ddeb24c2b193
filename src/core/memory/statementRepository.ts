import type { Database } from 'sql.js';
import { asNumber, asOptionalString, asString, selectAll, selectNumber } from '../store/rows';
import type { Cardinality } from './allowlist';
import type { Tier } from '../capture/candidate';

export type StatementStatus = 'proposed' | 'confirmed' | 'retired' | 'rejected';
/**
 * Where a statement came from: the chat (captured), the owner's own "Remember…", an import, read off the repository
 * (derived, with its citation), a teammate's shared file (shared), or another agent's proposal over MCP (agent). The last
 * three are never confirmed on their own word: they only ever wait for review.
 */
export type StatementOrigin = 'chat' | 'remember' | 'import' | 'derived' | 'shared' | 'agent';
const origins = new Set(['chat', 'remember', 'import', 'derived', 'shared', 'agent']);
export const isStatementOrigin = (value: unknown): value is StatementOrigin => typeof value === 'string' && origins.has(value);

/** Whom a statement is about: the owner (every workspace) or one project (`project:<normalized remote, root commit or folder>`). */
export type StatementScope = 'owner' | `project:${string}`;
export const isStatementScope = (value: unknown): value is StatementScope => value === 'owner' || (typeof value === 'string' && /^project:./.test(value));

/** The lines of a repository file a project fact rests on: re-checked (by hash) before the fact reaches a prompt. */
export interface Citation {
  /** Relative to the workspace folder, with forward slashes. */
  readonly path: string;
  /** 1-based, inclusive: where the lines were when cited (they may move; the hash is what counts). */
  readonly lines: readonly [number, number];
  /** sha256 (hex, first 16) of the cited lines, each trimmed, joined by newlines. */
  readonly hash: string;
}

export function isCitation(value: unknown): value is Citation {
  const c = value as Partial<Citation> | null;
  return !!c && typeof c.path === 'string' && typeof c.hash === 'string' && Array.isArray(c.lines) && c.lines.length === 2 && c.lines.every((n) => Number.isInteger(n));
}

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
  readonly scope: StatementScope;
  readonly citation?: Citation;
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
    origin: isStatementOrigin(row.origin) ? row.origin : 'chat',
    sourceTurnId: asOptionalString(row.source_turn_id as string | null),
    sourceSessionId: asOptionalString(row.source_session_id as string | null),
    sourceWords: asString(row.source_words as string, 'source_words'),
    createdAt: asString(row.created_at as string, 'created_at'),
    updatedAt: asString(row.updated_at as string, 'updated_at'),
    askedInSession: asOptionalString(row.asked_in_session as string | null),
    tokens: asNumber(row.tokens as number, 'tokens'),
    scope: isStatementScope(row.scope) ? row.scope : 'owner',
    citation: parseCitation(row.citation),
  };
}

function parseCitation(raw: unknown): Citation | undefined {
  if (typeof raw !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    return isCitation(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function findStatement(db: Database, id: string): StatementRecord | undefined {
  const row = selectAll(db, 'SELECT * FROM statements WHERE id = ?', [id])[0];
  return row ? toStatement(row) : undefined;
}

/** The statements of one scope (the owner's by default), of a status or all, by key, newest first. */
export function listStatements(db: Database, status?: StatementStatus, scope: StatementScope = 'owner'): StatementRecord[] {
  const rows = status
    ? selectAll(db, 'SELECT * FROM statements WHERE status = ? AND scope = ? ORDER BY key, updated_at DESC', [status, scope])
    : selectAll(db, 'SELECT * FROM statements WHERE scope = ? ORDER BY key, updated_at DESC', [scope]);
  return rows.map(toStatement);
}

/** A live (proposed or confirmed) statement of this key and value in a scope, compared without case. */
export function findLive(db: Database, key: string, value: string, scope: StatementScope = 'owner'): StatementRecord | undefined {
  const row = selectAll(
    db,
    `SELECT * FROM statements WHERE key = ? AND lower(value) = lower(?) AND scope = ? AND status IN ('confirmed', 'proposed')
     ORDER BY status = 'confirmed' DESC LIMIT 1`,
    [key, value, scope],
  )[0];
  return row ? toStatement(row) : undefined;
}

export function wasRejected(db: Database, key: string, value: string, scope: StatementScope = 'owner'): boolean {
  return selectNumber(db, "SELECT COUNT(*) FROM statements WHERE key = ? AND lower(value) = lower(?) AND scope = ? AND status = 'rejected'", [key, value, scope]) > 0;
}

/** The key and value of every statement of a scope that is live or was rejected: what a new proposal must not repeat. */
export function settledValues(db: Database, scope: StatementScope): { key: string; value: string }[] {
  return selectAll(db, "SELECT key, value FROM statements WHERE scope = ? AND status IN ('confirmed', 'proposed', 'rejected')", [scope]).map((row) => ({
    key: String(row.key),
    value: String(row.value),
  }));
}

/** Facts per scope and status, for `stats`: the owner's and each project's. */
export function countByScope(db: Database): Record<string, Record<StatementStatus, number>> {
  const counts: Record<string, Record<StatementStatus, number>> = {};
  for (const row of selectAll(db, 'SELECT scope, status, COUNT(*) AS n FROM statements GROUP BY scope, status')) {
    const scope = String(row.scope);
    counts[scope] ??= { proposed: 0, confirmed: 0, retired: 0, rejected: 0 };
    counts[scope][String(row.status) as StatementStatus] = Number(row.n);
  }
  return counts;
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

/** Proposals Engram asked about in a conversation and nobody answered yet, of every scope (the owner's, each project's), newest first. */
export function pendingQuestions(db: Database): StatementRecord[] {
  return selectAll(db, "SELECT * FROM statements WHERE status = 'proposed' AND asked_in_session IS NOT NULL ORDER BY updated_at DESC, rowid DESC").map(toStatement);
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
