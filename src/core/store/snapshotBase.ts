import { existsSync } from 'node:fs';
import type { Database, SqlJsStatic } from 'sql.js';
import { checksumOf, matches, readManifest, type GenerationManifest, type GenerationRecord } from './generations';
import { readUserVersion, schemaVersion, StoreTooNewError } from './migrations';
import { readSnapshot } from './snapshotFile';
import { openDatabaseOver } from './sqlJs';
import { applicationId, checkEngramDatabase, engramApplicationId } from './storeIdentity';
import type { StoreLayout } from './storeLayout';

/** A snapshot file found damaged: what was wrong, and which file (by inode) so only that one is set aside. */
export interface FoundDamage {
  readonly path: string;
  readonly reason: string;
  /** The damaged file's inode when it was read, or undefined when it is missing. */
  readonly inode?: bigint;
}

/** The database a load starts from, before migrations and journals. */
export interface BaseSnapshot {
  readonly db: Database;
  readonly source: 'current' | 'previous' | 'none';
  /** What the base's bytes checksum to (recorded in the manifest when it becomes the previous generation). */
  readonly record?: GenerationRecord;
  /** The current snapshot was damaged (or missing where the manifest says it should be). */
  readonly damage?: FoundDamage;
  /** The previous generation was damaged too (looked at only when the current one could not be used). */
  readonly previousDamage?: FoundDamage;
}

type Opened = { kind: 'missing' } | { kind: 'ok'; db: Database; record: GenerationRecord; inode: bigint } | { kind: 'damaged'; reason: string; inode?: bigint };

/**
 * Picks the newest trustworthy generation: the current snapshot when its bytes match what was recorded when
 * it was written (or, for a store without a record, when PRAGMA quick_check passes), else the previous one,
 * else an empty database. A SQLite file of another program, or of a newer Engram, is refused and left as is.
 */
export function openBase(sql: SqlJsStatic, layout: StoreLayout, distrustCurrent?: string): BaseSnapshot {
  const current = openGeneration(sql, layout, layout.snapshot);
  if (current.kind === 'ok' && !distrustCurrent) return { db: current.db, source: 'current', record: current.record };
  if (current.kind === 'ok') current.db.close();
  let damage: FoundDamage | undefined;
  if (distrustCurrent) damage = { path: layout.snapshot, reason: distrustCurrent, inode: current.kind === 'ok' ? current.inode : undefined };
  else if (current.kind === 'damaged') damage = { path: layout.snapshot, reason: current.reason, inode: current.inode };
  else {
    const manifest = readManifest(layout);
    if (manifest?.current && !manifest.pending && !existsSync(layout.snapshot)) damage = { path: layout.snapshot, reason: 'it is missing (deleted or moved)' };
  }
  const previous = openGeneration(sql, layout, layout.previous);
  if (previous.kind === 'ok') return { db: previous.db, source: 'previous', record: previous.record, damage };
  const previousDamage = previous.kind === 'damaged' ? { path: layout.previous, reason: previous.reason, inode: previous.inode } : undefined;
  return { db: new sql.Database(), source: 'none', damage, previousDamage };
}

/**
 * A file is trustworthy when its bytes match any generation the manifest records. The manifest is read after
 * the file: an install records its generation before renaming the file into place, so a file installed after
 * an earlier look at the manifest is never taken for a damaged one.
 */
function openGeneration(sql: SqlJsStatic, layout: StoreLayout, path: string): Opened {
  const read = readSnapshot(path);
  if (read.kind === 'missing') return { kind: 'missing' };
  if (read.kind === 'damaged') return { kind: 'damaged', reason: read.reason, inode: read.inode };
  const manifest: GenerationManifest | undefined = readManifest(layout);
  const known = [manifest?.current, manifest?.pending, manifest?.previous].filter((record): record is GenerationRecord => !!record);
  const record = known.find((candidate) => matches(read.bytes, candidate));
  // Without a record the checksum is taken now: the database is opened over these very bytes and may change them.
  const checksum = record ? record.crc32 : checksumOf(read.bytes);
  const fileBytes = read.bytes.length;
  let db: Database | undefined;
  try {
    db = openDatabaseOver(sql, read.bytes);
    const version = readUserVersion(db);
    const id = applicationId(db);
    if (version > schemaVersion && (id === 0 || id === engramApplicationId)) throw new StoreTooNewError(version);
    checkEngramDatabase(db, path);
    if (known.length > 0 && !record) {
      db.close();
      return { kind: 'damaged', reason: 'its bytes changed on disk after it was written (the checksum recorded with it does not match)', inode: read.inode };
    }
    if (!record) {
      // No record to compare with (a store from before generations, or a lost manifest): let SQLite read every page.
      const verdict = String(db.exec('PRAGMA quick_check')[0]?.values[0]?.[0] ?? '');
      if (verdict !== 'ok') throw new Error(verdict || 'quick_check gave no answer');
    }
    // A recorded generation says how many turns it holds (the compactor counted them in the file it read back).
    const turns = record ? record.turns : Number(db.exec('SELECT COUNT(*) FROM turns')[0]?.values[0]?.[0] ?? 0);
    return {
      kind: 'ok',
      db,
      inode: read.inode,
      record: record ?? { generation: 0, bytes: fileBytes, crc32: checksum, turns, at: new Date().toISOString() },
    };
  } catch (error) {
    db?.close();
    if (error instanceof StoreTooNewError || (error as Error).name === 'ForeignDatabaseError') throw error;
    return { kind: 'damaged', reason: `it is damaged (${(error as Error).message})`, inode: read.inode };
  }
}
