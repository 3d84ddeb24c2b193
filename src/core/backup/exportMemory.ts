import type { Database } from 'sql.js';
import { behaviorEventsOf } from '../memory/behaviorImport';
import { listBehaviors } from '../memory/behaviors';
import { mentionsOf } from '../memory/statementImport';
import { eventsOf, findStatement } from '../memory/statementRepository';
import type { MemoryStore } from '../store/memoryStore';
import { selectAll } from '../store/rows';
import type { ExportedBehavior, ExportedSession, ExportedStatement, MemoryFile, Tombstone } from './memoryFile';

/**
 * The whole memory as one readable JSON value (format version 2, see memoryFile.ts): what "Export Memory" and
 * `engram export` write. Sorted the same way every time, so two exports of the same memory are the same bytes but
 * for the time they were made.
 */
export function exportMemory(store: MemoryStore, now = new Date()): MemoryFile {
  store.indexPending();
  return store.read((db) => ({
    format: 'engram-memory',
    version: 2,
    exportedAt: now.toISOString(),
    sessions: exportSessions(store, db),
    statements: exportStatements(db),
    behaviors: exportBehaviors(db),
    forgotten: {
      sessions: tombstones(db, 'SELECT session_id AS id, at FROM forgotten_sessions ORDER BY at, session_id'),
      turns: tombstones(db, 'SELECT turn_id AS id, at FROM forgotten_turns ORDER BY at, turn_id'),
      statements: tombstones(db, 'SELECT statement_id AS id, at FROM forgotten_statements ORDER BY at, statement_id'),
    },
  }));
}

function exportSessions(store: MemoryStore, db: Database): ExportedSession[] {
  const rows = selectAll(db, 'SELECT id, source, started_at, last_at, summary, summary_upto, cooled_at FROM sessions ORDER BY started_at, id');
  return rows.map((row) => {
    const id = String(row.id);
    const turns = store.turns(id);
    const upto = Number(row.summary_upto ?? 0);
    // The summary reaches the turn of that seq, or the last one before it still here (a turn forgotten since).
    const covered = upto > 0 ? turns.filter((turn) => turn.seq <= upto).at(-1)?.id : undefined;
    return {
      id,
      source: row.source === 'import' ? 'import' : 'chat',
      startedAt: String(row.started_at),
      lastAt: String(row.last_at),
      ...(typeof row.summary === 'string' ? { summary: row.summary } : {}),
      ...(covered ? { summaryUpto: covered } : {}),
      ...(upto > 0 ? { summaryUptoSeq: upto } : {}),
      ...(typeof row.cooled_at === 'string' ? { cooledAt: row.cooled_at } : {}),
      turns: turns.map((turn) => ({ id: turn.id, role: turn.role, text: turn.text, at: turn.at, ...(turn.ref !== undefined ? { ref: turn.ref } : {}) })),
    };
  });
}

function exportStatements(db: Database): ExportedStatement[] {
  const ids = selectAll(db, 'SELECT id FROM statements ORDER BY scope, key, created_at, id').map((row) => String(row.id));
  return ids.flatMap((id) => {
    const s = findStatement(db, id);
    if (!s) return [];
    const statement: ExportedStatement = {
      id: s.id,
      scope: s.scope,
      key: s.key,
      value: s.value,
      cardinality: s.cardinality,
      status: s.status,
      tier: s.tier,
      origin: s.origin,
      words: s.sourceWords,
      ...(s.sourceTurnId !== undefined ? { sourceTurnId: s.sourceTurnId } : {}),
      ...(s.sourceSessionId !== undefined ? { sourceSessionId: s.sourceSessionId } : {}),
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
      ...(s.askedInSession !== undefined ? { askedInSession: s.askedInSession } : {}),
      ...(s.citation ? { citation: s.citation } : {}),
      mentions: mentionsOf(db, s.id),
      history: eventsOf(db, s.id).map((e) => ({
        id: e.id, at: e.at, action: e.action, statusAfter: e.statusAfter, reason: e.reason, ...(e.turnId !== undefined ? { turnId: e.turnId } : {}),
      })),
    };
    return [statement];
  });
}

function exportBehaviors(db: Database): ExportedBehavior[] {
  return listBehaviors(db)
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
    .map((b) => ({
      id: b.id,
      text: b.text,
      status: b.status,
      evidence: b.evidence,
      ...(b.evidenceTurnId !== undefined ? { evidenceTurnId: b.evidenceTurnId } : {}),
      ...(b.statementId !== undefined ? { statementId: b.statementId } : {}),
      createdAt: b.createdAt,
      updatedAt: b.updatedAt,
      history: behaviorEventsOf(db, b.id),
    }));
}

function tombstones(db: Database, sql: string): Tombstone[] {
  return selectAll(db, sql).map((row) => ({ id: String(row.id), at: String(row.at) }));
}
