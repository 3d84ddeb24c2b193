import { existsSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { isSealed, journalFolder, listJournals, writerMayBeAlive } from './journal';
import { loadDatabase, type DamageReport } from './loadDatabase';
import { tryAcquireSnapshotLock } from './snapshotLock';
import { writeFileAtomically } from './snapshotFile';
import { loadSqlJs } from './sqlJs';
import { storeLayout } from './storeLayout';

export interface CompactionResult {
  /** False when another process held the snapshot lock: nothing was done, nothing was lost. */
  readonly done: boolean;
  readonly turns: number;
  readonly snapshotBytes: number;
  /** Journals folded into the snapshot whose writers are gone, removed. */
  readonly journalsRemoved: string[];
  /** How far the new snapshot covers each journal. */
  readonly marks: Record<string, number>;
  readonly damage?: DamageReport;
  readonly ms: number;
}

/**
 * Folds every journal into a new snapshot: load (snapshot + journals), record how far each journal is
 * covered, export, write atomically, then remove the journals that are covered and will not grow.
 * Runs in a worker thread in the extension (an export of a large store takes hundreds of milliseconds)
 * and inline in the CLI.
 */
export async function compactStore(folder: string, wasmPath: string, now = new Date()): Promise<CompactionResult> {
  const started = Date.now();
  const release = tryAcquireSnapshotLock(folder);
  if (!release) return { done: false, turns: 0, snapshotBytes: 0, journalsRemoved: [], marks: {}, ms: Date.now() - started };
  try {
    const sql = await loadSqlJs(wasmPath);
    const loaded = loadDatabase(sql, folder, now, 'full');
    const { db } = loaded;
    try {
      const present = new Set(listJournals(folder));
      db.exec('BEGIN');
      db.exec('DELETE FROM journal_marks');
      for (const [file, offset] of loaded.offsets) {
        if (present.has(file)) db.run('INSERT INTO journal_marks (file, offset) VALUES (?, ?)', [file, offset]);
      }
      db.exec('COMMIT');
      // FTS4 keeps deleted terms in old segments until they are merged: merge them all after a removal.
      if (loaded.removalsReplayed > 0) db.exec("INSERT INTO turns_fts (turns_fts) VALUES ('optimize')");
      const bytes = db.export();
      writeFileAtomically(storeLayout(folder).snapshot, bytes);
      const turns = Number(db.exec('SELECT COUNT(*) FROM turns')[0]?.values[0]?.[0] ?? 0);
      const journalsRemoved = removeCoveredJournals(folder, loaded.offsets);
      return {
        done: true,
        turns,
        snapshotBytes: bytes.length,
        journalsRemoved,
        marks: Object.fromEntries(loaded.offsets),
        damage: loaded.damage,
        ms: Date.now() - started,
      };
    } finally {
      db.close();
    }
  } finally {
    release();
  }
}

/** A journal may go once the snapshot holds all of it and nobody will append to it again. */
function removeCoveredJournals(folder: string, covered: Map<string, number>): string[] {
  const removed: string[] = [];
  for (const name of listJournals(folder)) {
    const path = join(journalFolder(folder), name);
    const coveredTo = covered.get(name) ?? -1;
    if (statSync(path).size !== coveredTo) continue;
    if (!isSealed(folder, name) && writerMayBeAlive(name)) continue;
    unlinkSync(path);
    const seal = `${path}.sealed`;
    if (existsSync(seal)) unlinkSync(seal);
    removed.push(name);
  }
  return removed;
}
