import { existsSync, readFileSync, renameSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { SqlJsStatic } from 'sql.js';
import { checksumOf, removedHistory, writeManifest, type GenerationManifest, type GenerationRecord, type RemovedJournals } from './generations';
import { isSealed, journalFolder, listJournals, writerMayBeAlive } from './journal';
import { loadDatabase, type DamageReport } from './loadDatabase';
import { quarantineIfUnchanged, syncFolder, writeTempFile } from './snapshotFile';
import { tryAcquireSnapshotLock } from './snapshotLock';
import { loadSqlJs, openDatabaseOver } from './sqlJs';
import { checkEngramDatabase } from './storeIdentity';
import { storeLayout } from './storeLayout';
import { settleDeferred } from './operationRegistry';
import { countTurns } from './turnRepository';

export interface CompactionResult {
  /** False when another process held the snapshot lock: nothing was done, nothing was lost. */
  readonly done: boolean;
  readonly turns: number;
  readonly snapshotBytes: number;
  readonly generation?: number;
  /** Journals the previous generation covers whose writers are gone, removed. */
  readonly journalsRemoved: string[];
  /** How far the new snapshot covers each journal. */
  readonly marks: Record<string, number>;
  readonly damage?: DamageReport;
  /** Journal lines that did not verify, skipped (their journals are kept). */
  readonly badLines: number;
  /** How long PRAGMA quick_check of the written file took. */
  readonly verifyMs?: number;
  readonly ms: number;
}

/**
 * Folds every journal into a new snapshot generation: load (the newest trustworthy generation + journals),
 * record how far each journal is covered, export, write a temp file, read it back from disk and verify it
 * (checksum, PRAGMA quick_check, turn count), then install it: the current snapshot becomes the previous one
 * (a damaged one is set aside instead), the temp file becomes current. Only then are journals removed, and
 * only those the *previous* generation already covers: either snapshot can be damaged and nothing is lost.
 * Runs in a worker thread in the extension and inline in the CLI.
 */
export async function compactStore(folder: string, wasmPath: string, now = new Date()): Promise<CompactionResult> {
  const started = Date.now();
  const release = tryAcquireSnapshotLock(folder);
  if (!release) return { done: false, turns: 0, snapshotBytes: 0, journalsRemoved: [], marks: {}, badLines: 0, ms: Date.now() - started };
  try {
    const sql = await loadSqlJs(wasmPath);
    const loaded = loadDatabase(sql, folder, now);
    const { db } = loaded;
    const unknown = loaded.badLines.find((line) => line.unknownKind);
    if (unknown) {
      db.close();
      // Folding would move the journal marks past a change this process cannot apply, and it would be lost.
      throw new Error(`a journal holds an operation this process cannot apply (${unknown.journal}: ${unknown.reason}); nothing was folded`);
    }
    let bytes: Uint8Array;
    let turns: number;
    const marks: Record<string, number> = {};
    try {
      const present = new Set(listJournals(folder));
      db.exec('BEGIN');
      db.exec('DELETE FROM journal_marks');
      for (const [file, offset] of loaded.offsets) {
        if (!present.has(file)) continue;
        db.run('INSERT INTO journal_marks (file, offset) VALUES (?, ?)', [file, offset]);
        marks[file] = offset;
      }
      db.exec('COMMIT');
      // FTS4 keeps deleted terms in old segments until they are merged: merge them all after a removal.
      if (loaded.removalsReplayed > 0) db.exec("INSERT INTO turns_fts (turns_fts) VALUES ('optimize')");
      turns = countTurns(db);
      // Never replace good data with less: only a forget or retention operation may shrink the memory.
      if (turns < loaded.base.turns && loaded.removalsReplayed === 0) {
        throw new Error(`the new snapshot would hold ${turns} turns where the last one held ${loaded.base.turns}; nothing was written`);
      }
      settleDeferred(db);
      bytes = db.export();
    } finally {
      db.close();
    }
    let damage = loaded.damage;
    const installed = installGeneration(sql, folder, {
      bytes,
      turns,
      marks,
      manifest: loaded.manifest,
      baseIsCurrent: loaded.base.source === 'current',
      // The previous generation is now the file the load started from: its record is the one its bytes matched.
      previous: loaded.base.source === 'none' ? undefined : loaded.base.record,
      coveredByPrevious: loaded.baseOffsets,
      damagedJournals: new Set(loaded.badLines.map((line) => line.journal)),
      now,
      setAsideDamaged: () => {
        if (loaded.base.source !== 'current' && loaded.damageFound?.inode) {
          const keptAt = quarantineIfUnchanged(loaded.damageFound.path, loaded.damageFound.inode, now);
          if (damage && keptAt) damage = { ...damage, keptAt };
        }
        // Both generations damaged: the previous one is set aside as well, so the next install cannot overwrite it.
        if (loaded.base.source === 'none' && loaded.previousDamageFound?.inode) {
          const keptAt = quarantineIfUnchanged(loaded.previousDamageFound.path, loaded.previousDamageFound.inode, now);
          if (damage && keptAt) damage = { ...damage, previousKeptAt: keptAt };
        }
      },
    });
    return { ...installed, marks: Object.fromEntries(loaded.offsets), damage, badLines: loaded.badLines.length, ms: Date.now() - started };
  } finally {
    release();
  }
}

export type InstalledGeneration = Pick<CompactionResult, 'done' | 'turns' | 'snapshotBytes' | 'generation' | 'journalsRemoved' | 'verifyMs'>;

/** A database exported for a new generation, and what the install needs to know of the generations on disk. */
export interface NewGeneration {
  readonly bytes: Uint8Array;
  readonly turns: number;
  readonly marks: Record<string, number>;
  readonly manifest: GenerationManifest | undefined;
  /** The current snapshot file is the healthy base: it becomes the previous generation. */
  readonly baseIsCurrent: boolean;
  readonly previous: GenerationRecord | undefined;
  /** How far the previous generation covers each journal: those it covers whole may go. */
  readonly coveredByPrevious: ReadonlyMap<string, number>;
  /** Journals with lines that did not verify: kept for whoever wants to look at the damage. */
  readonly damagedJournals: ReadonlySet<string>;
  readonly now: Date;
  /** Runs after the pending record is written and before the new file is renamed into place. */
  readonly setAsideDamaged?: () => void;
}

/**
 * Installs a new generation (the caller holds the snapshot lock): write a temp file, read it back from disk and verify
 * it (checksum, PRAGMA quick_check, turn count), record it as pending, move the current file to previous, rename the
 * temp file into place, then remove the journals the previous generation covers and record the result.
 */
export function installGeneration(sql: SqlJsStatic, folder: string, next: NewGeneration): InstalledGeneration {
  const layout = storeLayout(folder);
  const manifest = next.manifest ?? { format: 'engram-generations' as const, version: 1 as const, removed: [] };
  const generation = Math.max(manifest.current?.generation ?? 0, manifest.previous?.generation ?? 0, next.previous?.generation ?? 0) + 1;
  const record: GenerationRecord = { generation, bytes: next.bytes.length, crc32: checksumOf(next.bytes), turns: next.turns, at: next.now.toISOString(), marks: next.marks };
  const temp = writeTempFile(layout.snapshot, next.bytes);
  let verifyMs: number;
  try {
    verifyMs = verifyWrittenSnapshot(sql, temp, record);
  } catch (error) {
    safeUnlink(temp);
    throw error;
  }
  writeManifest(layout, { ...manifest, pending: record });
  if (next.baseIsCurrent) renameSync(layout.snapshot, layout.previous);
  next.setAsideDamaged?.();
  renameSync(temp, layout.snapshot);
  syncFolder(folder);
  // The base is now the previous generation: journals it covers whole are in two snapshots and may go.
  const journalsRemoved = next.previous ? removeCoveredJournals(folder, next.coveredByPrevious, next.damagedJournals) : [];
  const removed: RemovedJournals[] = [...manifest.removed, { generation, journals: journalsRemoved }].slice(-removedHistory);
  writeManifest(layout, { format: 'engram-generations', version: 1, current: record, previous: next.previous, removed });
  return { done: true, turns: next.turns, snapshotBytes: next.bytes.length, generation, journalsRemoved: journalsRemoved.map((journal) => journal.name), verifyMs };
}

/** Reads the written file back from the disk and checks it as a reader would; returns how long quick_check took. */
function verifyWrittenSnapshot(sql: SqlJsStatic, path: string, record: GenerationRecord): number {
  const bytes = readFileSync(path);
  if (bytes.length !== record.bytes || checksumOf(bytes) !== record.crc32) {
    throw new Error(`the snapshot read back from ${path} is not what was written (${bytes.length} of ${record.bytes} bytes)`);
  }
  const db = openDatabaseOver(sql, bytes);
  try {
    const started = Date.now();
    const verdict = String(db.exec('PRAGMA quick_check')[0]?.values[0]?.[0] ?? '');
    if (verdict !== 'ok') throw new Error(`the written snapshot failed PRAGMA quick_check: ${verdict}`);
    const ms = Date.now() - started;
    checkEngramDatabase(db, path);
    const turns = countTurns(db);
    if (turns !== record.turns) throw new Error(`the written snapshot holds ${turns} turns, not ${record.turns}`);
    return ms;
  } finally {
    db.close();
  }
}

/**
 * A journal may go once the previous generation holds all of it (so two snapshots do), nobody will append to
 * it again, and none of its lines failed to verify (it is kept for whoever wants to look at the damage).
 */
function removeCoveredJournals(folder: string, coveredByPrevious: ReadonlyMap<string, number>, damaged: ReadonlySet<string>): { name: string; size: number }[] {
  const removed: { name: string; size: number }[] = [];
  for (const name of listJournals(folder)) {
    const path = join(journalFolder(folder), name);
    const size = statSync(path).size;
    if (size !== (coveredByPrevious.get(name) ?? -1) || damaged.has(name)) continue;
    if (!isSealed(folder, name) && writerMayBeAlive(name)) continue;
    unlinkSync(path);
    const seal = `${path}.sealed`;
    if (existsSync(seal)) unlinkSync(seal);
    removed.push({ name, size });
  }
  return removed;
}

function safeUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}


