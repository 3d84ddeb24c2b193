import type { Database } from 'sql.js';
import { asNumber, asOptionalString, asString, runStatement, selectAll, selectNumber } from './rows';

export interface SessionRecord {
  readonly id: string;
  readonly source: string;
  readonly startedAt: string;
  readonly lastAt: string;
  readonly turns: number;
  /** The first words of the conversation, to recognise it in a list. */
  readonly opening: string;
  readonly summary?: string;
  /** Set when the session's turns were removed by retention, keeping its summary. */
  readonly cooledAt?: string;
}

export function listSessions(db: Database): SessionRecord[] {
  return selectAll(
    db,
    `SELECT s.id, s.source, s.started_at, s.last_at, s.summary, s.cooled_at,
            (SELECT COUNT(*) FROM turns t WHERE t.session_id = s.id) AS turns,
            (SELECT substr(t.text, 1, 120) FROM turns t WHERE t.session_id = s.id AND t.role = 'user' ORDER BY t.seq LIMIT 1) AS opening
     FROM sessions s ORDER BY s.last_at DESC`,
  ).map((row) => ({
    id: asString(row.id, 'id'),
    source: asString(row.source, 'source'),
    startedAt: asString(row.started_at, 'started_at'),
    lastAt: asString(row.last_at, 'last_at'),
    turns: asNumber(row.turns, 'turns'),
    opening: asOptionalString(row.opening) ?? '',
    summary: asOptionalString(row.summary),
    cooledAt: asOptionalString(row.cooled_at),
  }));
}

/**
 * Removes a session's turns from the search index, then from the table: an external-content FTS4 table
 * reads the row's text to unindex it, so the index goes first.
 */
function deleteTurnsOf(db: Database, sessionId: string): number {
  const count = selectNumber(db, 'SELECT COUNT(*) FROM turns WHERE session_id = ?', [sessionId]);
  db.run('DELETE FROM turns_fts WHERE docid IN (SELECT rowid FROM turns WHERE session_id = ?)', [sessionId]);
  db.run('DELETE FROM turns WHERE session_id = ?', [sessionId]);
  return count;
}

/** The one place a session's text leaves the database. Returns the number of turns removed. */
export function forgetSession(db: Database, sessionId: string, at: string): number {
  const removed = deleteTurnsOf(db, sessionId);
  // Reports and the retrieval log of the conversation go with it: they name what it contained.
  db.run('DELETE FROM context_reports WHERE session_id = ?', [sessionId]);
  db.run('DELETE FROM retrieval_log WHERE session_id = ?', [sessionId]);
  db.run('DELETE FROM sessions WHERE id = ?', [sessionId]);
  db.run('INSERT OR IGNORE INTO forgotten_sessions (session_id, at) VALUES (?, ?)', [sessionId, at]);
  return removed;
}

/** Single turns leave the database (their search rows too), each leaving a tombstone. Returns the number removed. */
export function forgetTurns(db: Database, turnIds: readonly string[], at: string): number {
  let removed = 0;
  for (const turnId of turnIds) {
    const count = selectNumber(db, 'SELECT COUNT(*) FROM turns WHERE id = ?', [turnId]);
    db.run('DELETE FROM turns_fts WHERE docid IN (SELECT rowid FROM turns WHERE id = ?)', [turnId]);
    db.run('DELETE FROM turns WHERE id = ?', [turnId]);
    db.run('DELETE FROM retrieval_log WHERE memory_id = ?', [turnId]);
    db.run('INSERT OR IGNORE INTO forgotten_turns (turn_id, at) VALUES (?, ?)', [turnId, at]);
    removed += count;
  }
  return removed;
}

/** Cools a session to its summary. A session without a summary keeps its text: retention never leaves nothing. */
export function coolSession(db: Database, sessionId: string, at: string): number {
  const summary = selectAll(db, 'SELECT summary FROM sessions WHERE id = ? AND cooled_at IS NULL', [sessionId])[0]?.summary;
  if (typeof summary !== 'string' || summary.trim() === '') return 0;
  const removed = deleteTurnsOf(db, sessionId);
  db.run('UPDATE sessions SET cooled_at = ? WHERE id = ?', [at, sessionId]);
  return removed;
}

export function setSessionSummary(db: Database, sessionId: string, summary: string, uptoSeq?: number): boolean {
  runStatement(db, 'UPDATE sessions SET summary = ?, summary_upto = MAX(summary_upto, ?) WHERE id = ?', [summary, uptoSeq ?? 0, sessionId]);
  return db.getRowsModified() > 0;
}

/** Sessions whose last turn is older than `cutoff` and that have a summary to cool to. */
export function summaryOf(db: Database, sessionId: string): { summary?: string; uptoSeq: number } {
  const row = selectAll(db, 'SELECT summary, summary_upto FROM sessions WHERE id = ?', [sessionId])[0];
  return { summary: asOptionalString(row?.summary), uptoSeq: Number(row?.summary_upto ?? 0) };
}

export function sessionsToCool(db: Database, cutoff: string): string[] {
  return selectAll(
    db,
    `SELECT id FROM sessions WHERE last_at < ? AND cooled_at IS NULL AND summary IS NOT NULL AND trim(summary) <> ''`,
    [cutoff],
  ).map((row) => asString(row.id, 'id'));
}
