import { closeSync, existsSync, fstatSync, fsyncSync, openSync, readdirSync, readSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isProcessAlive } from './processAlive';
import { allowGrowthInto } from './sqlJs';

/** The first 16 bytes of every SQLite database file. */
const sqliteHeader = Buffer.from('SQLite format 3\0', 'latin1');

export type SnapshotRead =
  | { readonly kind: 'missing' }
  | { readonly kind: 'present'; readonly bytes: Uint8Array; readonly inode: bigint }
  | { readonly kind: 'damaged'; readonly reason: string; readonly inode?: bigint };

/**
 * Reads a snapshot without trusting it. sql.js opens a zero-byte file as a healthy empty database, so
 * an empty or header-less file is reported as damaged here, before sql.js ever sees it.
 */
export function readSnapshot(path: string): SnapshotRead {
  if (!existsSync(path)) return { kind: 'missing' };
  let bytes: Buffer;
  let inode: bigint;
  try {
    // Read through one descriptor, so the inode named is the file whose bytes were read.
    const fd = openSync(path, 'r');
    try {
      const stat = fstatSync(fd, { bigint: true });
      inode = stat.ino;
      bytes = readWithRoomToGrow(fd, Number(stat.size));
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
    return { kind: 'damaged', reason: `it could not be read (${(error as Error).message})` };
  }
  if (bytes.length === 0) return { kind: 'damaged', reason: 'it is empty (0 bytes)', inode };
  if (bytes.length < 100 || !bytes.subarray(0, 16).equals(sqliteHeader)) {
    return { kind: 'damaged', reason: `it is not a SQLite database (${bytes.length} bytes, unrecognised header)`, inode };
  }
  // The header records the page size and page count: a file shorter than that was cut off mid-write.
  // sql.js opens such a file happily and fails later, query by query, with "malformed".
  const pageSize = bytes.readUInt16BE(16) === 1 ? 65536 : bytes.readUInt16BE(16);
  const pageCount = bytes.readUInt32BE(28);
  if (pageCount > 0 && pageCount * pageSize !== bytes.length) {
    return { kind: 'damaged', reason: `it is truncated (${bytes.length} bytes where its header promises ${pageCount * pageSize})`, inode };
  }
  return { kind: 'present', bytes, inode };
}

/**
 * The file's bytes, in a buffer with room after them: sql.js keeps the database file in memory, and the first write
 * past its end (a journal replayed at open, a new turn) otherwise copies the whole file into a buffer an eighth larger
 * (at 100k turns the RSS after a replay was 50 MB higher). Pages of the room that are never written take no memory.
 * A file that grew since its size was read is read to its end all the same.
 */
function readWithRoomToGrow(fd: number, size: number): Buffer {
  let buffer = Buffer.allocUnsafeSlow(size + roomFor(size));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      const larger = Buffer.allocUnsafeSlow(buffer.length * 2);
      buffer.copy(larger);
      buffer = larger;
    }
    const read = readSync(fd, buffer, length, buffer.length - length, length);
    if (read === 0) break;
    length += read;
  }
  return allowGrowthInto(buffer).subarray(0, length);
}

/** Room after a database file's bytes: an eighth of it, at least 1 MB (sql.js grows a file by an eighth at a time). */
export function roomFor(size: number): number {
  return Math.max(1 << 20, Math.ceil(size / 8));
}

/**
 * Moves a damaged file aside under a timestamped name, never overwriting an earlier one, and returns
 * the new path. The bytes are kept: a person (or a later version) may still recover something from them.
 */
export function quarantine(path: string, now: Date): string {
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  let target = `${path}.damaged-${stamp}`;
  for (let n = 2; existsSync(target); n++) target = `${path}.damaged-${stamp}-${n}`;
  renameSync(path, target);
  return target;
}

/** Quarantines the file only if it is still the one found damaged (same inode): never a newer generation. */
export function quarantineIfUnchanged(path: string, inode: bigint, now: Date): string | undefined {
  try {
    if (statSync(path, { bigint: true }).ino !== inode) return undefined;
  } catch {
    return undefined;
  }
  return quarantine(path, now);
}

/**
 * Writes the whole file so that a crash at any moment leaves either the old file or the new one:
 * temp file, fsync, rename over the old, fsync the folder. A plain overwrite killed mid-write corrupts it.
 */
export function writeFileAtomically(path: string, bytes: Uint8Array): void {
  const temp = writeTempFile(path, bytes);
  try {
    renameSync(temp, path);
  } catch (error) {
    safeUnlink(temp);
    throw error;
  }
  syncFolder(dirname(path));
}

/** Writes the bytes to a fresh temp file beside `path` and fsyncs it; returns its path. Every byte is checked written. */
export function writeTempFile(path: string, bytes: Uint8Array): string {
  const temp = `${path}.tmp-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    let offset = 0;
    while (offset < bytes.length) {
      const written = writeSync(fd, bytes, offset, bytes.length - offset);
      if (written <= 0) throw new Error(`the disk is full: ${offset} of ${bytes.length} bytes of ${basename(path)} written`);
      offset += written;
    }
    fsyncSync(fd);
  } catch (error) {
    closeSync(fd);
    safeUnlink(temp);
    throw error;
  }
  closeSync(fd);
  return temp;
}

/** Removes temp files left by a writer that was killed between writing and renaming. */
export function removeStaleTempFiles(path: string, olderThanMs = 60_000, now = Date.now()): string[] {
  const folder = dirname(path);
  const prefix = `${basename(path)}.tmp-`;
  const removed: string[] = [];
  for (const name of readdirSync(folder)) {
    if (!name.startsWith(prefix)) continue;
    const full = join(folder, name);
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    const ownerAlive = pid !== process.pid && isProcessAlive(pid);
    if (!ownerAlive && now - statSync(full).mtimeMs >= olderThanMs) {
      safeUnlink(full);
      removed.push(full);
    }
  }
  return removed;
}

export function syncFolder(folder: string): void {
  try {
    const fd = openSync(folder, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems refuse fsync on a directory; the rename is still atomic there.
  }
}

function safeUnlink(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone.
  }
}
