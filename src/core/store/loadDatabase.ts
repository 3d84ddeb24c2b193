import type { Database, SqlJsStatic } from 'sql.js';
import { readManifest, writeManifest, type GenerationManifest, type GenerationRecord } from './generations';
import { listJournals, readJournal, type BadJournalLine } from './journal';
import { migrate } from './migrations';
import { applyOp, removesText, settleDeferred, type StoreOp } from './operationRegistry';
import './operations';
import type { TurnOp } from './operations';
import { selectAll } from './rows';
import { openBase, type FoundDamage } from './snapshotBase';
import { quarantineIfUnchanged } from './snapshotFile';
import { tryAcquireSnapshotLock } from './snapshotLock';
import { storeLayout, type StoreLayout } from './storeLayout';
import { countTurns, insertTurnsInTransaction } from './turnRepository';

/** What happened to a damaged snapshot found at load, and what came back. */
export interface DamageReport {
  readonly reason: string;
  /** Where the damaged file was moved; it is kept, never overwritten. Undefined while another process holds the lock. */
  readonly keptAt?: string;
  /** Turns in the memory rebuilt without the damaged file. */
  readonly recoveredTurns: number;
  /** Where they came from: the previous snapshot generation, and the journals replayed over it. */
  readonly fromPrevious: number;
  readonly fromJournals: number;
  /** Set when the previous generation was damaged too: why, and where it was kept. */
  readonly previousReason?: string;
  readonly previousKeptAt?: string;
  /** With both generations damaged, what only they held: the newest one recorded, and how many of its turns did not come back. */
  readonly lost?: LostGeneration;
}

/** The newest generation the manifest records, when neither snapshot file could be used. */
export interface LostGeneration {
  readonly generation: number;
  readonly at: string;
  /** Turns it held when it was written. */
  readonly turns: number;
  /** Of those, how many the journals still held (they came back); the rest are lost. */
  readonly cameBack: number;
  readonly lostTurns: number;
}

export interface LoadedDatabase {
  readonly db: Database;
  readonly schemaVersion: number;
  readonly damage?: DamageReport;
  /** For each journal, how far this database has applied it (byte offset of the next unread line). */
  readonly offsets: Map<string, number>;
  /** How far the snapshot the load started from covered each journal. */
  readonly baseOffsets: Map<string, number>;
  readonly base: { readonly source: 'current' | 'previous' | 'none'; readonly record?: GenerationRecord; readonly turns: number };
  readonly damageFound?: FoundDamage;
  readonly previousDamageFound?: FoundDamage;
  readonly manifest?: GenerationManifest;
  readonly replayedOps: number;
  readonly skippedLines: number;
  /** Journal lines that were complete but did not verify (checksum, JSON, unknown operation): skipped, never applied. */
  readonly badLines: BadJournalLine[];
  /** Forget or retention operations among those replayed: their text must be scrubbed from the index too. */
  readonly removalsReplayed: number;
}

export interface LoadOptions {
  /** Set the damaged current snapshot aside (under the snapshot lock). The compactor does it itself. */
  readonly quarantine?: boolean;
  /** The current snapshot failed at a read ("malformed"): rebuild without it. */
  readonly distrustCurrent?: string;
}

/** How often a load starts over because compactions replaced generations under it. */
const maxAttempts = 20;

/**
 * The store as it stands: the newest trustworthy snapshot generation (see snapshotBase.ts), migrated, then
 * every journal replayed from where that snapshot's marks say it stops.
 *
 * Installing generation M removes only journals generation M-1 covers. A load that started from generation G
 * therefore misses nothing if, by its end, no generation past G+1 was installed; otherwise a journal it needed
 * may have gone between its read of the snapshot and its read of the journals, and it starts over. So a
 * reader never sees fewer turns than the store holds, whatever a concurrent compaction does.
 */
export function loadDatabase(sql: SqlJsStatic, folder: string, now: Date, options: LoadOptions = {}): LoadedDatabase {
  const layout = storeLayout(folder);
  for (let attempt = 1; ; attempt++) {
    const newestBefore = newestGeneration(layout);
    const loaded = loadOnce(sql, folder, options);
    const base = loaded.base.source === 'none' ? 0 : (loaded.base.record?.generation ?? 0);
    const newest = newestGeneration(layout);
    // A gap with no install during the load is not a concurrent compaction: the generations in between are damaged
    // or gone, and what the journals still hold is all there is. Only a manifest that moved meanwhile means "again".
    if (newest <= base + 1 || newest === newestBefore) return options.quarantine ? setDamagedFilesAside(loaded, folder, now) : loaded;
    loaded.db.close();
    if (attempt === maxAttempts) throw new Error('The memory store kept changing while it was read (other windows compacting it); try again.');
  }
}

/** The newest generation installed or being installed (its journal removals may be under way). */
function newestGeneration(layout: StoreLayout): number {
  const manifest = readManifest(layout);
  return Math.max(manifest?.current?.generation ?? 0, manifest?.pending?.generation ?? 0, manifest?.previous?.generation ?? 0);
}

function loadOnce(sql: SqlJsStatic, folder: string, options: LoadOptions): LoadedDatabase {
  const layout = storeLayout(folder);
  const base = openBase(sql, layout, options.distrustCurrent);
  const { db } = base;
  try {
    // Deleted rows are overwritten, not left in free pages of the next snapshot: forgetting must reach the disk.
    db.exec('PRAGMA secure_delete = ON');
    // The database file lives in sql.js's in-memory file system and dies with the process (the journals are what is
    // durable), so its rollback journal may as well live in memory too: a file journal created and deleted around
    // every write cost 30 to 60 µs per statement. Transactions still roll back as before.
    db.exec('PRAGMA journal_mode = MEMORY');
    // No other connection ever opens that file, so this one keeps its lock and its page cache between statements:
    // otherwise every statement began by locking the file and re-reading its header through the file system's
    // JavaScript layer, 10 µs even for a lookup that finds nothing, and a chat turn runs some forty statements.
    db.exec('PRAGMA locking_mode = EXCLUSIVE');
    const schemaVersion = migrate(db).to;
    const offsets = new Map<string, number>();
    for (const row of selectAll(db, 'SELECT file, offset FROM journal_marks')) offsets.set(String(row.file), Number(row.offset));
    const baseOffsets = new Map(offsets);
    // The generation's record says how many turns it holds: a count at 1M turns reads the whole table (0.1-0.3 s).
    const baseTurns = base.source === 'none' ? 0 : (base.record?.turns ?? countTurns(db));
    let replayedOps = 0;
    let removalsReplayed = 0;
    const badLines: BadJournalLine[] = [];
    for (const name of listJournals(folder)) {
      const read = readJournal(folder, name, offsets.get(name) ?? 0);
      replayedOps += applyInTransaction(db, read.ops);
      badLines.push(...read.badLines);
      removalsReplayed += read.ops.filter(removesText).length;
      offsets.set(name, read.offset);
    }
    // What the replay left for a quiet moment is done now: an opened database holds every operation applied.
    settleDeferred(db);
    const turns = base.damage ? countTurns(db) : 0;
    const manifest = readManifest(layout);
    const newestRecord = base.source === 'none' ? (manifest?.current ?? manifest?.previous) : undefined;
    const damage: DamageReport | undefined = base.damage && {
      reason: base.damage.reason,
      recoveredTurns: turns,
      fromPrevious: base.source === 'previous' ? baseTurns : 0,
      fromJournals: turns - (base.source === 'previous' ? baseTurns : 0),
      previousReason: base.previousDamage?.reason,
      lost: newestRecord && lostGeneration(db, folder, newestRecord),
    };
    return {
      db, schemaVersion, damage, offsets, baseOffsets, manifest, replayedOps, badLines, removalsReplayed,
      skippedLines: badLines.length,
      base: { source: base.source, record: base.record, turns: baseTurns },
      damageFound: base.damage,
      previousDamageFound: base.previousDamage,
    };
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Of the turns a generation held (by its journal marks), those the journals still hold and the rebuilt memory has:
 * the rest were only in the damaged snapshots. A record without marks (older stores) counts what came back at all.
 */
function lostGeneration(db: Database, folder: string, record: GenerationRecord): LostGeneration {
  let cameBack = 0;
  if (record.marks) {
    const stored = db.prepare('SELECT 1 FROM turns WHERE id = ?');
    try {
      for (const [name, mark] of Object.entries(record.marks)) {
        const after = new Set(readJournal(folder, name, mark).ops.map((op) => op.id));
        for (const op of readJournal(folder, name, 0).ops) {
          if (op.kind !== 'turn' || after.has(op.id)) continue;
          stored.bind([op.id]);
          if (stored.step()) cameBack++;
          stored.reset();
        }
      }
    } finally {
      stored.free();
    }
  } else {
    cameBack = Math.min(record.turns, countTurns(db));
  }
  cameBack = Math.min(cameBack, record.turns);
  return { generation: record.generation, at: record.at, turns: record.turns, cameBack, lostTurns: record.turns - cameBack };
}

/**
 * Moves the damaged snapshot files aside (the current one, and the previous one when it is damaged too), only while
 * holding the lock and only if each is still the file found damaged.
 */
function setDamagedFilesAside(loaded: LoadedDatabase, folder: string, now: Date): LoadedDatabase {
  const found = loaded.damageFound;
  if (!found?.inode || !loaded.damage) return loaded;
  const release = tryAcquireSnapshotLock(folder, undefined, now);
  if (!release) return loaded;
  try {
    const keptAt = quarantineIfUnchanged(found.path, found.inode, now);
    if (!keptAt) return loaded;
    const previous = loaded.previousDamageFound;
    const previousKeptAt = previous?.inode ? quarantineIfUnchanged(previous.path, previous.inode, now) : undefined;
    const layout = storeLayout(folder);
    const manifest = readManifest(layout);
    if (manifest) writeManifest(layout, { ...manifest, current: undefined, pending: undefined });
    return { ...loaded, damage: { ...loaded.damage, keptAt, previousKeptAt } };
  } finally {
    release();
  }
}

/** What both damaged generations cost, in words, or '' when only one was damaged. */
export function describeLoss(damage: DamageReport): string {
  if (!damage.lost && !damage.previousReason) return '';
  const previous = damage.previousReason
    ? ` The previous snapshot could not be used either (${damage.previousReason})${damage.previousKeptAt ? `; it was kept at ${damage.previousKeptAt}` : ''}.`
    : ' There was no previous snapshot to fall back on.';
  if (!damage.lost) return previous;
  const { generation, at, turns, cameBack, lostTurns } = damage.lost;
  return `${previous} The last snapshot (generation ${generation}, written ${at}) held ${turns} turns: ${cameBack} of them came back from the journals and ${lostTurns} were only in the damaged snapshots and are lost.`;
}

/** Applies operations in one transaction (one commit instead of one per operation); returns how many changed something. */
export function applyInTransaction(db: Database, ops: readonly StoreOp[], deferIndex?: (rowid: number) => void): number {
  if (ops.length === 0) return 0;
  let applied = 0;
  // Runs of turns (an import's journal) go in together, with statements prepared once: replaying 100k turns one
  // operation at a time cost more than the import itself.
  let turns: TurnOp[] = [];
  const insertRun = (): void => {
    if (turns.length > 0) applied += insertTurnsInTransaction(db, turns, deferIndex).filter(Boolean).length;
    turns = [];
  };
  db.exec('BEGIN');
  try {
    for (const op of ops) {
      if (op.kind === 'turn') {
        turns.push(op as TurnOp);
        continue;
      }
      insertRun();
      if (applyOp(db, op, deferIndex)) applied++;
    }
    insertRun();
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
  return applied;
}
