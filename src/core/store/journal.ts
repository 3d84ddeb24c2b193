import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, statSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { hostname } from 'node:os';
import { basename, join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { decodeJournalLine, encodeJournalLine } from './journalLine';
import { checkStoreOp, type StoreOp } from './operationRegistry';
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
  let names: string[];
  try {
    // One call, not an existsSync first: every turn lists the journals, to read what other writers appended.
    names = readdirSync(journalFolder(storeFolder));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names.filter((name) => name.endsWith(suffix)).sort();
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

/** A complete line that was not applied: damaged, torn, or an operation this version does not know. */
export interface BadJournalLine {
  readonly journal: string;
  /** Byte offset of the line's start in the journal. */
  readonly offset: number;
  readonly reason: string;
  /** A kind no domain registered (a newer version's, or a domain this process forgot): never to be folded past. */
  readonly unknownKind?: boolean;
}

export interface JournalRead {
  readonly ops: StoreOp[];
  /** Offset just past the last complete line read: where the next read starts. */
  readonly offset: number;
  /** Lines that were complete but not a valid operation (a torn write, damaged bytes, or a newer version's op). */
  readonly skippedLines: number;
  readonly badLines: BadJournalLine[];
}

/**
 * Reads the complete lines of a journal from `offset`. A last line without its newline is a write in
 * progress (or torn by a crash): it is left for the next read.
 */
export function readJournal(storeFolder: string, name: string, offset: number): JournalRead {
  const path = join(journalFolder(storeFolder), name);
  const nothing: JournalRead = { ops: [], offset, skippedLines: 0, badLines: [] };
  // Most reads (every turn, for every other writer) find nothing new: one stat, not an open, a stat and a close.
  try {
    if (statSync(path).size <= offset) return nothing;
  } catch {
    return nothing;
  }
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return nothing;
  }
  try {
    const size = fstatSync(fd).size;
    if (size <= offset) return nothing;
    const buffer = Buffer.alloc(size - offset);
    let read = 0;
    while (read < buffer.length) {
      const n = readSync(fd, buffer, read, buffer.length - read, offset + read);
      if (n === 0) break;
      read += n;
    }
    const end = buffer.lastIndexOf(0x0a, read - 1);
    if (end < 0) return nothing;
    const ops: StoreOp[] = [];
    const badLines: BadJournalLine[] = [];
    let start = 0;
    while (start <= end) {
      const newline = buffer.indexOf(0x0a, start);
      if (newline > start) {
        const decoded = decodeJournalLine(buffer.toString('utf8', start, newline));
        const checked = decoded.ok ? checkStoreOp(decoded.value) : undefined;
        if (checked?.ok) ops.push(checked.op);
        else if (checked) badLines.push({ journal: name, offset: offset + start, reason: checked.reason, unknownKind: checked.unknownKind });
        else if (!decoded.ok) badLines.push({ journal: name, offset: offset + start, reason: decoded.reason });
      }
      start = newline + 1;
    }
    return { ops, offset: offset + end + 1, skippedLines: badLines.length, badLines };
  } finally {
    closeSync(fd);
  }
}

interface PendingAppend {
  readonly op: StoreOp;
  readonly line: string;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** A journal write that did not reach the disk whole. `diskFull` when the disk (or the user's quota) is full. */
export class JournalWriteError extends Error {
  constructor(
    message: string,
    readonly diskFull: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'JournalWriteError';
  }
}

/**
 * Appends operations to this writer's journal on libuv's thread pool, never on the caller's thread:
 * a write counts as stored once its promise resolves, after every byte was written and fdatasync returned.
 * Appends queued while a write is in flight go out together in the next write, with one fdatasync.
 *
 * A short write (a full disk writes fewer bytes than asked, without an error) or a failed one is cut back
 * to the last whole line before anything else is appended: a later line never lands after a torn fragment.
 * When the cut itself fails, the rest goes to a fresh journal file.
 */
export class JournalWriter {
  private handle: FileHandle | undefined;
  private queue: PendingAppend[] = [];
  private inFlight: PendingAppend[] = [];
  private draining: Promise<void> | undefined;
  /** Bytes of whole lines known to be on disk: the journal is never longer than this after a cut. */
  private durableBytes = 0;
  private lastError: Error | undefined;
  private readonly earlierNames: string[] = [];

  private constructor(
    readonly storeFolder: string,
    private fileName: string,
    private readonly onError: (error: Error) => void,
  ) {}

  static create(storeFolder: string, onError: (error: Error) => void, name = newJournalName()): JournalWriter {
    mkdirSync(journalFolder(storeFolder), { recursive: true });
    return new JournalWriter(storeFolder, name, onError);
  }

  /** The journal file this writer appends to now (a failed cut moves it to a new one). */
  get name(): string {
    return this.fileName;
  }

  /** Every journal file this writer has appended to. */
  get names(): string[] {
    return [...this.earlierNames, this.fileName];
  }

  get size(): number {
    return this.durableBytes;
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Operations appended but not yet known to be on disk (queued, in flight, or failed and waiting to be retried). */
  get pendingOps(): StoreOp[] {
    return [...this.inFlight, ...this.queue].map((entry) => entry.op);
  }

  append<Op extends StoreOp>(op: Op): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ op, line: encodeJournalLine(op), resolve, reject });
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

  /**
   * Drops what failed to reach the disk (after a flush rejected), so it is never written later: the caller was told
   * those changes did not happen. Returns how many were dropped; nothing while a write is in flight.
   */
  discardUnwritten(): number {
    if (this.draining) return 0;
    const dropped = this.queue.length;
    this.queue = [];
    return dropped;
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
        this.inFlight = batch;
        try {
          this.handle ??= await open(join(journalFolder(this.storeFolder), this.fileName), 'a', 0o600);
          const bytes = Buffer.from(batch.map((entry) => entry.line).join(''), 'utf8');
          const { bytesWritten } = await this.handle.write(bytes, 0, bytes.length);
          if (bytesWritten !== bytes.length) {
            throw new JournalWriteError(
              `the disk is full: only ${bytesWritten} of ${bytes.length} bytes of ${batch.length} changes were written`,
              true,
            );
          }
          await this.handle.datasync();
          this.durableBytes += bytes.length;
          for (const entry of batch) entry.resolve();
        } catch (cause) {
          const error = toWriteError(cause);
          this.lastError = error;
          await this.cutBackToWholeLines();
          // The operations stay in memory and are written again by the next flush.
          this.queue = [...batch.map((entry) => ({ ...entry, resolve: () => undefined, reject: () => undefined })), ...this.queue];
          for (const entry of batch) entry.reject(error);
          this.onError(error);
          return;
        }
      }
    } finally {
      this.inFlight = [];
      this.draining = undefined;
    }
  }

  /** Truncates a torn tail; if that fails too, later lines go to a fresh journal, never after the fragment. */
  private async cutBackToWholeLines(): Promise<void> {
    try {
      if (!this.handle) return;
      await this.handle.truncate(this.durableBytes);
      await this.handle.datasync();
    } catch {
      await this.handle?.close().catch(() => undefined);
      this.handle = undefined;
      this.earlierNames.push(this.fileName);
      this.fileName = newJournalName();
      this.durableBytes = 0;
    }
  }
}

function toWriteError(cause: unknown): JournalWriteError {
  if (cause instanceof JournalWriteError) return new JournalWriteError(`Writing to the memory journal failed: ${cause.message}`, cause.diskFull, { cause });
  const code = (cause as NodeJS.ErrnoException).code;
  const diskFull = code === 'ENOSPC' || code === 'EDQUOT';
  const what = diskFull ? 'the disk is full' : (cause as Error).message;
  return new JournalWriteError(`Writing to the memory journal failed: ${what}`, diskFull, { cause });
}
