import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Database } from 'sql.js';
import { matches, readManifest } from './generations';
import { installGeneration, type CompactionResult } from './compaction';
import { journalFolder, listJournals } from './journal';
import { readSnapshot } from './snapshotFile';
import { loadSqlJs } from './sqlJs';
import { storeLayout } from './storeLayout';
import { countTurns } from './turnRepository';

/** A database this process holds, with every journal applied up to `offsets` (read while the caller held the lock). */
export interface HeldDatabase {
  readonly db: Database;
  /** How far it has applied the other writers' journals. */
  readonly offsets: ReadonlyMap<string, number>;
  /** This process's own journals, flushed whole: everything in them is applied. */
  readonly ownJournals: readonly string[];
  /** Journals with lines that did not verify: they are kept. */
  readonly damagedJournals: ReadonlySet<string>;
}

/**
 * Folds the database this process already holds into a new generation, with the export, read-back verification and
 * install compactStore uses, instead of loading the store again from the disk: after an import of 100k turns, that
 * second load replayed the whole journal and was 40 % of the import's time. The caller holds the snapshot lock and has
 * read every other writer's journal under it. Only the plain case is folded here: the current snapshot is the healthy
 * file its record names (it becomes the previous generation) and no removal is involved (those merge the search index
 * so removed words leave the file); otherwise undefined, and compactStore loads and decides.
 */
export async function foldHeldDatabase(folder: string, wasmPath: string, held: HeldDatabase, now = new Date()): Promise<CompactionResult | undefined> {
  const started = Date.now();
  const layout = storeLayout(folder);
  const manifest = readManifest(layout);
  const current = manifest?.current;
  // A store's first snapshot (no generation, no file yet: an import into a new folder) has no base to check.
  const first = !manifest && !existsSync(layout.snapshot) && !existsSync(layout.previous);
  if (!first && (!manifest || !current?.marks || manifest.pending)) return undefined;
  if (current) {
    const file = readSnapshot(layout.snapshot);
    if (file.kind !== 'present' || !matches(file.bytes, current)) return undefined;
  }
  const { db } = held;
  const turns = countTurns(db);
  if (turns < (current?.turns ?? 0)) return undefined;
  const present = new Set(listJournals(folder));
  const offsets = new Map(held.offsets);
  for (const name of held.ownJournals) offsets.set(name, sizeOf(join(journalFolder(folder), name)));
  const marks: Record<string, number> = {};
  db.exec('BEGIN');
  try {
    db.exec('DELETE FROM journal_marks');
    for (const [name, offset] of offsets) {
      if (!present.has(name)) continue;
      db.run('INSERT INTO journal_marks (file, offset) VALUES (?, ?)', [name, offset]);
      marks[name] = offset;
    }
    db.exec('COMMIT');
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
  const bytes = db.export();
  const installed = installGeneration(await loadSqlJs(wasmPath), folder, {
    bytes,
    turns,
    marks,
    manifest,
    baseIsCurrent: current !== undefined,
    previous: current,
    coveredByPrevious: new Map(Object.entries(current?.marks ?? {})),
    damagedJournals: held.damagedJournals,
    now,
  });
  return { ...installed, marks, badLines: 0, ms: Date.now() - started };
}

function sizeOf(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}
