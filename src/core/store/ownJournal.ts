import type { CompactionResult } from './compaction';
import { JournalWriter, sealJournal } from './journal';
import type { StoreOp } from './operationRegistry';

/**
 * This process's journal over its lifetime: the writer, the fresh file it starts when the old one has grown
 * large or must be rewritten (forgetting), the seal that lets a compaction remove a file nobody will append to,
 * and how much of it the last snapshot covered.
 */
export class OwnJournal {
  private writer: JournalWriter | undefined;
  private covered: { journal: string; bytes: number } | undefined;
  /** Files written by earlier writers of ours (rotated away): never another window's lines. */
  private readonly earlierNames = new Set<string>();
  private closed = false;

  constructor(
    private readonly folder: string,
    private readonly onError: (error: Error) => void,
    writable: boolean,
  ) {
    if (writable) this.writer = JournalWriter.create(folder, onError);
  }

  get name(): string | undefined {
    return this.writer?.name;
  }

  /** Every journal file this process wrote, the current one included. */
  get ownNames(): string[] {
    return [...new Set([...this.earlierNames, ...(this.writer?.names ?? [])])];
  }

  /** Whether this process wrote the journal file of that name. */
  owns(name: string): boolean {
    return this.earlierNames.has(name) || (this.writer?.names.includes(name) ?? false);
  }

  /** Operations appended but not yet on disk. */
  get pendingOps(): StoreOp[] {
    return this.writer?.pendingOps ?? [];
  }

  /** The writer; `why` says why there is none (read-only, or closed). */
  writable(why: string): JournalWriter {
    if (!this.writer) throw new Error(why);
    return this.writer;
  }

  /** Starts the journal of a store opened read-only that now writes (once; never after close). */
  startWriting(): void {
    if (!this.writer && !this.closed) this.writer = JournalWriter.create(this.folder, this.onError);
  }

  async flush(): Promise<void> {
    await this.writer?.flush();
  }

  discardUnwritten(): number {
    return this.writer?.discardUnwritten() ?? 0;
  }

  /** Bytes in our journal not yet known to be in a snapshot. */
  get unsnapshottedBytes(): number {
    if (!this.writer) return 0;
    return this.writer.size - (this.covered?.journal === this.writer.name ? this.covered.bytes : 0);
  }

  /**
   * Runs a compaction; `rotate` first moves to a fresh file, so the old one (sealed) can leave the disk, and a
   * journal past `rotateBytes` is replaced after the compaction that covered it, so loading stays fast.
   */
  async snapshot(compact: () => Promise<CompactionResult>, options: { rotate?: boolean; rotateBytes: number }): Promise<CompactionResult> {
    await this.flush();
    let old = this.writer;
    if (options.rotate && old && old.size > 0) {
      await this.replace(old);
      old = undefined;
    }
    const coveredBytes = this.writer?.size ?? 0;
    const result = await compact();
    if (result.done && this.writer) this.covered = { journal: this.writer.name, bytes: coveredBytes };
    if (result.done && old && old.size >= options.rotateBytes) await this.replace(old);
    return result;
  }

  /** Flushes and seals; returns whether anything was ever written, and the error of changes that could not be. */
  async close(): Promise<{ wrote: boolean; unwritten?: unknown }> {
    const writer = this.writer;
    this.writer = undefined;
    this.closed = true;
    if (!writer) return { wrote: false };
    // Still ours after close: a snapshot taken while closing must not read them back as another writer's.
    for (const name of writer.names) this.earlierNames.add(name);
    let unwritten: unknown;
    // Changes that could not be written were never acknowledged; the journal is sealed all the same.
    await writer.flush().catch((error: unknown) => (unwritten = error));
    await writer.close();
    if (writer.size > 0) sealJournal(this.folder, writer.name);
    return { wrote: writer.size > 0, unwritten };
  }

  private async replace(old: JournalWriter): Promise<void> {
    for (const name of old.names) this.earlierNames.add(name);
    this.writer = JournalWriter.create(this.folder, this.onError);
    await old.close();
    sealJournal(this.folder, old.name);
  }
}
