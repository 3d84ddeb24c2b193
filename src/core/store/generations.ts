import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { writeFileAtomically } from './snapshotFile';
import { storeLayout, type StoreLayout } from './storeLayout';

/**
 * Generations of the snapshot. `engram.sqlite` is the current one, `engram.sqlite.previous` the one before;
 * `generations.json` records what each one's bytes checksum to, written by the compactor after it read the new
 * file back from disk and ran PRAGMA quick_check over it. Opening compares the file's CRC32 with the record
 * (about 10 ms for 50 MB): bytes changed on disk since, anywhere in the file, are found without reading every
 * page through SQLite. A journal is removed only once the previous generation covers it, so either snapshot
 * can be lost or damaged and the other one plus the journals still hold every turn.
 */
export interface GenerationRecord {
  readonly generation: number;
  readonly bytes: number;
  readonly crc32: string;
  readonly turns: number;
  readonly at: string;
  /**
   * How far this generation covers each journal: if both generations are ever damaged, the turns of it that the
   * journals still hold can be told from those that are lost.
   */
  readonly marks?: Readonly<Record<string, number>>;
}

/** Journals a compaction removed (name and final size), so a window that was tailing one can tell it missed lines. */
export interface RemovedJournals {
  readonly generation: number;
  readonly journals: readonly { readonly name: string; readonly size: number }[];
}

export interface GenerationManifest {
  readonly format: 'engram-generations';
  readonly version: 1;
  readonly current?: GenerationRecord;
  readonly previous?: GenerationRecord;
  /** Written before the renames that install a new generation: a crash between them leaves it valid too. */
  readonly pending?: GenerationRecord;
  readonly removed: readonly RemovedJournals[];
}

/** How many compactions' removals the manifest remembers. */
export const removedHistory = 16;

export function checksumOf(bytes: Uint8Array): string {
  return (crc32(bytes) >>> 0).toString(16).padStart(8, '0');
}

export function matches(bytes: Uint8Array, record: GenerationRecord | undefined): boolean {
  return !!record && record.bytes === bytes.length && record.crc32 === checksumOf(bytes);
}

export function readManifest(layout: StoreLayout): GenerationManifest | undefined {
  try {
    const value = JSON.parse(readFileSync(layout.manifest, 'utf8')) as Partial<GenerationManifest>;
    if (value.format !== 'engram-generations' || value.version !== 1) return undefined;
    return { format: 'engram-generations', version: 1, current: value.current, previous: value.previous, pending: value.pending, removed: value.removed ?? [] };
  } catch {
    // Missing (a store older than generations) or damaged: opening falls back to PRAGMA quick_check.
    return undefined;
  }
}

export function writeManifest(layout: StoreLayout, manifest: GenerationManifest): void {
  writeFileAtomically(layout.manifest, Buffer.from(`${JSON.stringify(manifest, null, 1)}\n`, 'utf8'));
}

/** Writes a store's first snapshot with its record, for stores built in one go (the benchmark's corpus). */
export function installFirstGeneration(folder: string, bytes: Uint8Array, turns: number, now = new Date()): void {
  const layout = storeLayout(folder);
  const current: GenerationRecord = { generation: 1, bytes: bytes.length, crc32: checksumOf(bytes), turns, at: now.toISOString() };
  writeFileAtomically(layout.snapshot, bytes);
  writeManifest(layout, { format: 'engram-generations', version: 1, current, removed: [] });
}
