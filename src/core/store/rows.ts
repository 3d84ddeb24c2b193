import type { Database, SqlValue, Statement } from 'sql.js';

/**
 * Prepared statements kept per database: compiling SQL in sql.js costs tens of microseconds, and a turn runs the same
 * few dozen queries every time. sql.js frees a database's statements when it closes; the bound keeps statements built
 * from variable SQL (an IN list) from piling up.
 */
const statementCache = new WeakMap<Database, Map<string, Statement>>();
const cachedStatementsPerDatabase = 256;

function cachedStatement(db: Database, sql: string): Statement {
  let statements = statementCache.get(db);
  if (!statements) statementCache.set(db, (statements = new Map()));
  const cached = statements.get(sql);
  if (cached) return cached;
  if (statements.size >= cachedStatementsPerDatabase) {
    for (const statement of statements.values()) statement.free();
    statements.clear();
  }
  const statement = db.prepare(sql);
  statements.set(sql, statement);
  return statement;
}

/** Runs a query and returns its rows as objects keyed by column name. */
export function selectAll(db: Database, sql: string, params: SqlValue[] = []): Record<string, SqlValue>[] {
  const statement = cachedStatement(db, sql);
  try {
    statement.bind(params);
    const rows: Record<string, SqlValue>[] = [];
    while (statement.step()) rows.push(statement.getAsObject());
    return rows;
  } finally {
    // Reset, so that a kept statement holds no read lock and keeps no bound values alive.
    statement.reset();
  }
}

/** Runs a statement that returns no rows (an INSERT, UPDATE or DELETE) through the same cache. */
export function runStatement(db: Database, sql: string, params: SqlValue[] = []): void {
  const statement = cachedStatement(db, sql);
  try {
    statement.run(params);
  } finally {
    statement.reset();
  }
}

export function selectOne(db: Database, sql: string, params: SqlValue[] = []): Record<string, SqlValue> | undefined {
  return selectAll(db, sql, params)[0];
}

export function selectNumber(db: Database, sql: string, params: SqlValue[] = []): number {
  const row = selectOne(db, sql, params);
  const value = row ? Object.values(row)[0] : 0;
  return typeof value === 'number' ? value : Number(value ?? 0);
}

/** Type guards for values read back from the database: a row is a trust boundary like any other. */
export function asString(value: SqlValue | undefined, column: string): string {
  if (typeof value !== 'string') throw new Error(`Expected text in column "${column}", found ${typeof value}`);
  return value;
}

export function asNumber(value: SqlValue | undefined, column: string): number {
  if (typeof value !== 'number') throw new Error(`Expected a number in column "${column}", found ${typeof value}`);
  return value;
}

export function asOptionalString(value: SqlValue | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
