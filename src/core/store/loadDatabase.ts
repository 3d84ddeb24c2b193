import type { Database, SqlJsStatic } from 'sql.js';
import { listJournals, readJournal } from './journal';
import { migrate } from './migrations';
import { applyOp, type StoreOp } from './operations';
import { selectAll } from './rows';
import { quarantine, readSnapshot } from './snapshotFile';
import { storeLayout } from './storeLayout';

/** What happened to a damaged snapshot found at load. */
export interface DamageReport {
  readonly reason: string;
  /** Where the damaged file was moved; it is kept, never overwritten. */
  readonly keptAt: string;
  /** Turns recovered from the journals into the new store. */
  readonly recoveredTurns: number;
}

export interface LoadedDatabase {
  readonly db: Database;
  readonly schemaVersion: number;
  readonly damage?: DamageReport;
  /** For each journal, how far this database has applied it (byte offset of the next unread line). */
  readonly offsets: Map<string, number>;
  readonly replayedOps: number;
  readonly skippedLines: number;
  /** Forget or retention operations among those replayed: their text must be scrubbed from the index too. */
  readonly removalsReplayed: number;
}

/**
 * The store as it stands: the snapshot (set aside if damaged; sql.js would take a zero-byte file as an
 * empty database), migrated, then every journal replayed from where the snapshot's marks say it stops.
 */
export function loadDatabase(sql: SqlJsStatic, folder: string, now: Date, verify: SnapshotCheck = 'header'): LoadedDatabase {
  const layout = storeLayout(folder);
  const opened = openSnapshot(sql, layout.snapshot, now, verify);
  const { db } = opened;
  try {
    // Deleted rows are overwritten, not left in free pages of the next snapshot: forgetting must reach the disk.
    db.exec('PRAGMA secure_delete = ON');
    const schemaVersion = migrate(db).to;
    const offsets = new Map<string, number>();
    for (const row of selectAll(db, 'SELECT file, offset FROM journal_marks')) {
      offsets.set(String(row.file), Number(row.offset));
    }
    let replayedOps = 0;
    let skippedLines = 0;
    let removalsReplayed = 0;
    for (const name of listJournals(folder)) {
      const read = readJournal(folder, name, offsets.get(name) ?? 0);
      replayedOps += applyInTransaction(db, read.ops);
      skippedLines += read.skippedLines;
      removalsReplayed += read.ops.filter((op) => op.kind === 'forgetSessions' || op.kind === 'coolSessions').length;
      offsets.set(name, read.offset);
    }
    const damage = opened.damage && { ...opened.damage, recoveredTurns: countTurns(db) };
    return { db, schemaVersion, damage, offsets, replayedOps, skippedLines, removalsReplayed };
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Applies operations in one transaction (one commit instead of one per operation); returns how many changed something. */
export function applyInTransaction(db: Database, ops: readonly StoreOp[], deferIndex?: (rowid: number) => void): number {
  if (ops.length === 0) return 0;
  let applied = 0;
  db.exec('BEGIN');
  try {
    for (const op of ops) if (applyOp(db, op, deferIndex)) applied++;
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
  return applied;
}

function countTurns(db: Database): number {
  return Number(db.exec('SELECT COUNT(*) FROM turns')[0]?.values[0]?.[0] ?? 0);
}

/**
 * How much of the snapshot to check before trusting it. 'header': magic, page size and page count
 * against the file's length (catches empty and cut-off files at no cost). 'full': also PRAGMA quick_check,
 * which reads every page: seconds at 100k turns, so it runs in the snapshot worker, not at activation.
 */
export type SnapshotCheck = 'header' | 'full';

function openSnapshot(
  sql: SqlJsStatic,
  path: string,
  now: Date,
  verify: SnapshotCheck,
): { db: Database; damage?: Omit<DamageReport, 'recoveredTurns'> } {
  const read = readSnapshot(path);
  if (read.kind === 'missing') return { db: new sql.Database() };
  if (read.kind === 'damaged') return { db: new sql.Database(), damage: { reason: read.reason, keptAt: quarantine(path, now) } };
  let db: Database | undefined;
  try {
    db = new sql.Database(read.bytes);
    const check = verify === 'full' ? 'PRAGMA quick_check' : 'SELECT COUNT(*) FROM sqlite_master';
    const verdict = String(db.exec(check)[0]?.values[0]?.[0] ?? '');
    if (verify === 'full' && verdict !== 'ok') throw new Error(verdict || 'quick_check gave no answer');
    return { db };
  } catch (error) {
    db?.close();
    return { db: new sql.Database(), damage: { reason: `it is damaged (${(error as Error).message})`, keptAt: quarantine(path, now) } };
  }
}
