import type { Database } from 'sql.js';
import { selectAll } from './rows';

/**
 * SQLite's `PRAGMA application_id` marks a database file as Engram's ("Engr"), so another program's SQLite
 * file found where the store should be is refused, never adopted and written over. Stores written before the
 * mark existed are recognised by their tables: nothing but Engram's own.
 */
export const engramApplicationId = 0x456e6772;

/** The file at the store's place is a SQLite database of some other program: it is left untouched. */
export class ForeignDatabaseError extends Error {
  constructor(
    readonly path: string,
    detail: string,
  ) {
    super(
      `${path} is not an Engram memory store (${detail}). Engram left it untouched: move it elsewhere, or point Engram at ` +
        'another folder (the CLI\'s --db).',
    );
    this.name = 'ForeignDatabaseError';
  }
}

const engramTables = new Set([
  'sessions', 'turns', 'journal_marks', 'turns_fts', 'turns_terms', 'forgotten_sessions', 'statements', 'statement_events',
  'statement_mentions', 'statements_fts', 'context_reports', 'retrieval_log', 'behaviors', 'behavior_events', 'forgotten_statements', 'forgotten_turns',
  'sqlite_sequence', 'sqlite_stat1',
]);
/** FTS4 keeps its index in shadow tables named after the virtual table. */
const ftsShadow = /^(turns_fts|statements_fts)_(segments|segdir|docsize|stat|content)$/;

export function applicationId(db: Database): number {
  return Number(db.exec('PRAGMA application_id')[0]?.values[0]?.[0] ?? 0);
}

/** Throws ForeignDatabaseError unless the database is an Engram store (marked, or an unmarked older one). */
export function checkEngramDatabase(db: Database, path: string): void {
  const id = applicationId(db);
  if (id === engramApplicationId) return;
  if (id !== 0) throw new ForeignDatabaseError(path, `its application_id is ${id}, Engram's is ${engramApplicationId}`);
  const tables = selectAll(db, "SELECT name FROM sqlite_master WHERE type = 'table'").map((row) => String(row.name));
  const unknown = tables.filter((name) => !engramTables.has(name) && !ftsShadow.test(name));
  if (unknown.length > 0) throw new ForeignDatabaseError(path, `it holds tables Engram never makes: ${unknown.slice(0, 5).join(', ')}`);
  if (!tables.includes('turns')) throw new ForeignDatabaseError(path, 'it has no Engram tables and no Engram application_id');
}
