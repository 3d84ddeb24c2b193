import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { isStoreOp, type StoreOp } from './operations';
import { isProcessAlive } from './processAlive';

/**
 * Per-writer append-only journals. Each process that writes (a VS Code window, a CLI import) appends to
 * a file of its own, so two writers never touch the same bytes; everyone reads everyone's journals.
 * File name: `<host>~<pid>~<unique>.jsonl`, so a compactor can tell whether its writer is still alive.
 */

export const journalFolderName = 'journals';
const suffix = '.jsonl';
/** Written beside a journal its writer will never append to again (rotated or closed). */
const sealSuffix = '.sealed';

export function journalFolder(storeFolder: string): string {
  return join(storeFolder, journalFolderName);
}

export function newJournalName(): string {
  const safeHost = hostname().replace(/[^A-Za-z0-9.-]/g, '_');
  return `${safeHost}~${process.pid}~${Date.now().toString(36)}${randomBytes(3).toString('hex')}${suffix}`;
}

export function listJournals(storeFolder: string): string[] {
  const folder = journalFolder(storeFolder);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith(suffix))
    .sort();
}

export function sealJournal(storeFolder: string, name: string): void {
  writeFileSync(join(journalFolder(storeFolder), name + sealSuffix), '');
}

export function isSealed(storeFolder: string, name: string): boolean {
  return existsSync(join(journalFolder(storeFolder), name + sealSuffix));
}

/** Whether the process that writes this journal may still append to it. */
export function writerMayBeAlive(name: string): boolean {
  const [host, pidText] = basename(name, suffix).split('~');
  if (host !== hostname().replace(/[^A-Za-z0-9.-]/g, '_')) return true; // another machine: cannot tell, assume alive
  return isProcessAlive(Number(pidText));
}

export interface JournalRead {
  readonly ops: StoreOp[];
  /** Offset just past the last complete line read: where the next read starts. */
  readonly offset: number;
  /** Lines that were complete but not a valid operation (a torn write, or a newer version's op). */
  readonly skippedLines: number;
}

/**
 * Reads the complete lines of a journal from `offset`. A last line without its newline is a write in
 * progress (or torn by a crash): it is left for the next read.
 */
export function readJournal(storeFolder: string, name: string, offset: number): JournalRead {
  const path = join(journalFolder(storeFolder), name);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return { ops: [], offset, skippedLines: 0 };
  }
  try {
    const size = fstatSync(fd).size;
    if (size <= offset) return { ops: [], offset, skippedLines: 0 };
    const buffer = Buffer.alloc(size - offset);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, offset + read);
      if (n === 0) break;
      read += n;
    }
    const end = buffer.lastIndexOf(0x0a, read - 1);
    if (end < 0) return { ops: [], offset, skippedLines: 0 };
    const ops: StoreOp[] = [];
    let skippedLines = 0;
    for (const line of buffer.toString('utf8', 0, end).split('\n')) {
      if (line.length === 0) continue;
      try {
        const parsed: unknown = JSON.parse(line);
        if (isStoreOp(parsed)) ops.push(parsed);
        else skippedLines++;
      } catch {
        skippedLines++;
      }
    }
    return { ops, offset: offset + end + 1, skippedLines };
  } finally {
    closeSync(fd);
  }
}

interface PendingAppend {
  readonly line: string;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/**
 * Appends operations to this writer's journal on libuv's thread pool, never on the caller's thread:
 * a write counts as stored once its promise resolves, after fdatasync. Appends queued while a write is
 * in flight go out together in the next write, with one fdatasync.
 */
export class JournalWriter {
  private handle: FileHandle | undefined;
  private queue: PendingAppend[] = [];
  private draining: Promise<void> | undefined;
  /** After a failed write a torn line may end the file; the next write starts on a fresh line. */
  private needsNewline = false;
  private bytesWritten = 0;
  private lastError: Error | undefined;

  private constructor(
    readonly storeFolder: string,
    readonly name: string,
    private readonly onError: (error: Error) => void,
  ) {}

  static create(storeFolder: string, onError: (error: Error) => void, name = newJournalName()): JournalWriter {
    mkdirSync(journalFolder(storeFolder), { recursive: true });
    return new JournalWriter(storeFolder, name, onError);
  }

  get size(): number {
    return this.bytesWritten;
  }

  get pending(): number {
    return this.queue.length;
  }

  append(op: StoreOp): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ line: `${JSON.stringify(op)}\n`, resolve, reject });
      this.draining ??= this.drain();
    });
  }

  /** Resolves when everything appended so far is on disk; rejects if some of it could not be written. */
  async flush(): Promise<void> {
    while (this.draining) await this.draining;
    if (this.queue.length > 0) {
      this.draining = this.drain();
      await this.draining;
    }
    // Whatever is still queued failed to write just now: the caller must not count it as stored.
    if (this.queue.length > 0) throw this.lastError ?? new Error('Writing to the memory journal failed');
  }

  async close(): Promise<void> {
    await this.flush().catch(() => undefined);
    await this.handle?.close();
    this.handle = undefined;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        try {
          this.handle ??= await open(join(journalFolder(this.storeFolder), this.name), 'a', 0o600);
          const text = (this.needsNewline ? '\n' : '') + batch.map((entry) => entry.line).join('');
          const bytes = Buffer.from(text, 'utf8');
          await this.handle.write(bytes, 0, bytes.length);
          await this.handle.datasync();
          this.needsNewline = false;
          this.bytesWritten += bytes.length;
          for (const entry of batch) entry.resolve();
        } catch (cause) {
          this.needsNewline = true;
          const error = new Error(`Writing to the memory journal failed: ${(cause as Error).message}`, { cause });
          this.lastError = error;
          // The operations stay in memory and are written again by the next flush.
          this.queue = [...batch.map((entry) => ({ ...entry, resolve: () => undefined, reject: () => undefined })), ...this.queue];
          for (const entry of batch) entry.reject(error);
          this.onError(error);
          return;
        }
      }
    } finally {
      this.draining = undefined;
    }
  }
}
