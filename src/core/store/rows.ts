import type { Database, SqlValue } from 'sql.js';

/** Runs a query and returns its rows as objects keyed by column name. */
export function selectAll(db: Database, sql: string, params: SqlValue[] = []): Record<string, SqlValue>[] {
  const statement = db.prepare(sql);
  try {
    statement.bind(params);
    const rows: Record<string, SqlValue>[] = [];
    while (statement.step()) rows.push(statement.getAsObject());
    return rows;
  } finally {
    statement.free();
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
