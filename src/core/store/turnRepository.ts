import type { Database, SqlValue } from 'sql.js';
import { asNumber, asOptionalString, asString, runStatement, selectAll, selectNumber } from './rows';

export type TurnRole = 'user' | 'assistant';

/** Where a session came from: a chat in VS Code, or history brought in by `engram import`. */
export type SessionSource = 'chat' | 'import';

export interface TurnRecord {
  readonly id: string;
  readonly sessionId: string;
  readonly seq: number;
  readonly role: TurnRole;
  readonly text: string;
  /** ISO-8601 time the turn was said. */
  readonly at: string;
  /** An outside identifier (from an imported file), if any. */
  readonly ref?: string;
  readonly tokens: number;
}

/** A turn as it is written: the id makes the write idempotent, so a replayed write changes nothing. */
export interface NewTurn {
  readonly id: string;
  readonly sessionId: string;
  readonly role: TurnRole;
  readonly text: string;
  readonly at: string;
  readonly ref?: string;
  readonly tokens: number;
  readonly source: SessionSource;
}

export function isTurnRole(value: unknown): value is TurnRole {
  return value === 'user' || value === 'assistant';
}

/**
 * Inserts a turn (and its session, the first time); returns the turn as stored, or undefined when the id was already
 * stored or forgotten, or its session forgotten (nothing changes then). `deferIndex` leaves the search index to
 * indexTurns(): the recording window batches it off the reply path. Three statements where eight ran with the read-back:
 * each sql.js statement costs 15-20 µs of bind, step and reset however little it does, and a chat turn records two turns.
 */
export function insertTurn(db: Database, turn: NewTurn, deferIndex?: (rowid: number) => void): TurnRecord | undefined {
  const known = selectNumber(
    db,
    `SELECT EXISTS (SELECT 1 FROM turns WHERE id = ?1)
         OR EXISTS (SELECT 1 FROM forgotten_sessions WHERE session_id = ?2)
         OR EXISTS (SELECT 1 FROM forgotten_turns WHERE turn_id = ?1)`,
    [turn.id, turn.sessionId],
  );
  if (known) return undefined;
  runStatement(db, 
    `INSERT INTO sessions (id, source, started_at, last_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET
       started_at = MIN(started_at, excluded.started_at),
       last_at = MAX(last_at, excluded.last_at)`,
    [turn.sessionId, turn.source, turn.at, turn.at],
  );
  // The session's next seq is taken in the insert itself, which returns it with the row's id for the search index.
  const inserted = selectAll(
    db,
    `INSERT INTO turns (id, session_id, seq, role, text, at, ref, tokens)
     SELECT ?1, ?2, COALESCE(MAX(seq), 0) + 1, ?3, ?4, ?5, ?6, ?7 FROM turns WHERE session_id = ?2
     RETURNING rowid, seq`,
    [turn.id, turn.sessionId, turn.role, turn.text, turn.at, turn.ref ?? null, turn.tokens],
  )[0];
  const rowid = asNumber(inserted?.rowid, 'rowid');
  if (deferIndex) deferIndex(rowid);
  else runStatement(db, 'INSERT INTO turns_fts (docid, text) VALUES (?, ?)', [rowid, turn.text]);
  // What the row holds, as findTurn would read it back (the store records well-formed text only).
  return { id: turn.id, sessionId: turn.sessionId, seq: asNumber(inserted?.seq, 'seq'), role: turn.role, text: turn.text, at: turn.at, ref: turn.ref, tokens: turn.tokens };
}

/** `tokens` of a turn not counted yet (an import leaves counting to the first prompt that needs the turn). */
export const uncountedTokens = -1;

/** insertTurnsInTransaction in a transaction of its own. */
export function insertTurns(db: Database, turns: readonly NewTurn[], deferIndex?: (rowid: number) => void): (TurnRecord | undefined)[] {
  db.exec('BEGIN');
  try {
    const stored = insertTurnsInTransaction(db, turns, deferIndex);
    db.exec('COMMIT');
    return stored;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Inserts many turns with statements prepared once (an import's batch, a journal replayed): the same rows, checks and
 * idempotence as insertTurn, at a fraction of the cost per turn. Returns each turn as stored, or undefined as insertTurn.
 * The caller holds the transaction.
 */
export function insertTurnsInTransaction(db: Database, turns: readonly NewTurn[], deferIndex?: (rowid: number) => void): (TurnRecord | undefined)[] {
  // One statement per turn: the checks of insertTurn ride in the insert itself (each sql.js statement costs 15-20 µs).
  const insert = db.prepare(
    `INSERT INTO turns (id, session_id, seq, role, text, at, ref, tokens)
     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8
     WHERE NOT EXISTS (SELECT 1 FROM turns WHERE id = ?1)
       AND NOT EXISTS (SELECT 1 FROM forgotten_sessions WHERE session_id = ?2)
       AND NOT EXISTS (SELECT 1 FROM forgotten_turns WHERE turn_id = ?1)
     RETURNING rowid`,
  );
  const lastSeq = db.prepare('SELECT COALESCE(MAX(seq), 0) FROM turns WHERE session_id = ?');
  const session = db.prepare(
    `INSERT INTO sessions (id, source, started_at, last_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(id) DO UPDATE SET started_at = MIN(started_at, excluded.started_at), last_at = MAX(last_at, excluded.last_at)`,
  );
  /** Rows to index at the end of the batch, in ranges (see indexTurns), when the caller does not defer them. */
  const toIndex: number[] = [];
  /** Per session of the batch: its last seq, and the times its stored turns span (written once, at the end). */
  const sessions = new Map<string, { seq: number; source: string; first: string; last: string }>();
  const one = (statement: typeof insert, params: SqlValue[]): SqlValue | undefined => {
    statement.bind(params);
    const value = statement.step() ? statement.get()[0] : undefined;
    statement.reset();
    return value;
  };
  try {
    const stored = turns.map((turn): TurnRecord | undefined => {
      let known = sessions.get(turn.sessionId);
      if (!known) sessions.set(turn.sessionId, (known = { seq: Number(one(lastSeq, [turn.sessionId]) ?? 0), source: turn.source, first: turn.at, last: turn.at }));
      const rowid = one(insert, [turn.id, turn.sessionId, known.seq + 1, turn.role, turn.text, turn.at, turn.ref ?? null, turn.tokens]);
      if (rowid === undefined) return undefined;
      const seq = ++known.seq;
      if (turn.at < known.first) known.first = turn.at;
      if (turn.at > known.last) known.last = turn.at;
      if (deferIndex) deferIndex(Number(rowid));
      else toIndex.push(Number(rowid));
      return { id: turn.id, sessionId: turn.sessionId, seq, role: turn.role, text: turn.text, at: turn.at, ref: turn.ref, tokens: turn.tokens };
    });
    for (const [id, known] of sessions) if (known.seq > 0) session.run([id, known.source, known.first, known.last]);
    indexRowsInTransaction(db, toIndex);
    return stored;
  } finally {
    for (const statement of [insert, lastSeq, session]) statement.free();
  }
}

/**
 * Adds turns to the full-text index in one transaction: one new index segment for the whole batch. Consecutive rowids
 * (an import's batch, a run of turns) go in as one range: an FTS4 insert per row cost five times as much (50k turns:
 * 5.6 s one by one, 0.9-1.3 s in ranges of 5,000).
 */
export function indexTurns(db: Database, rowids: readonly number[]): void {
  if (rowids.length === 0) return;
  db.exec('BEGIN');
  try {
    indexRowsInTransaction(db, rowids);
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

/** indexTurns inside the caller's transaction. */
function indexRowsInTransaction(db: Database, rowids: readonly number[]): void {
  const sorted = [...new Set(rowids)].sort((a, b) => a - b);
  const statement = db.prepare('INSERT INTO turns_fts (docid, text) SELECT rowid, text FROM turns WHERE rowid BETWEEN ? AND ?');
  try {
    for (let start = 0; start < sorted.length; ) {
      let end = start;
      while (end + 1 < sorted.length && sorted[end + 1] === sorted[end] + 1) end++;
      statement.run([sorted[start], sorted[end]]);
      start = end + 1;
    }
  } finally {
    statement.free();
  }
}

export function findTurn(db: Database, id: string): TurnRecord | undefined {
  const row = selectAll(db, 'SELECT * FROM turns WHERE id = ?', [id])[0];
  return row ? toTurnRecord(row) : undefined;
}

export function turnsOfSession(db: Database, sessionId: string): TurnRecord[] {
  return selectAll(db, 'SELECT * FROM turns WHERE session_id = ? ORDER BY seq', [sessionId]).map(toTurnRecord);
}

/** A session's turns after `afterSeq`, oldest first. */
export function turnsOfSessionAfter(db: Database, sessionId: string, afterSeq: number): TurnRecord[] {
  return selectAll(db, 'SELECT * FROM turns WHERE session_id = ? AND seq > ? ORDER BY seq', [sessionId, afterSeq]).map(toTurnRecord);
}

export function recentTurnsOfSession(db: Database, sessionId: string, limit: number): TurnRecord[] {
  return selectAll(db, 'SELECT * FROM turns WHERE session_id = ? ORDER BY seq DESC LIMIT ?', [sessionId, limit])
    .map(toTurnRecord)
    .reverse();
}

function toTurnRecord(row: Record<string, SqlValue>): TurnRecord {
  const role = row.role;
  if (!isTurnRole(role)) throw new Error(`Unexpected turn role in the store: ${String(role)}`);
  return {
    id: asString(row.id, 'id'),
    sessionId: asString(row.session_id, 'session_id'),
    seq: asNumber(row.seq, 'seq'),
    role,
    text: asString(row.text, 'text'),
    at: asString(row.at, 'at'),
    ref: asOptionalString(row.ref),
    tokens: asNumber(row.tokens, 'tokens'),
  };
}

export function countTurns(db: Database): number {
  return selectNumber(db, 'SELECT COUNT(*) FROM turns');
}

export function countSessions(db: Database): number {
  return selectNumber(db, 'SELECT COUNT(*) FROM sessions');
}
