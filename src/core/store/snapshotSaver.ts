import { writeFileAtomically } from './snapshotFile';

/**
 * Saves the database a moment after it changes, so a chat reply never waits for a save and a burst of
 * writes costs one save. A failed save keeps the change pending and is retried on the next change or flush.
 */
export class SnapshotSaver {
  private changed = false;
  private timer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(
    private readonly path: string,
    private readonly exportDatabase: () => Uint8Array,
    private readonly delayMs: number,
    private readonly onError: ((error: Error) => void) | undefined,
  ) {}

  markChanged(): void {
    this.changed = true;
    if (this.disposed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.save().catch(() => undefined);
    }, this.delayMs);
    // A pending save must not keep a CLI process alive on its own; flush() is called before exit.
    this.timer.unref?.();
  }

  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    await this.save();
  }

  async dispose(): Promise<void> {
    await this.flush();
    this.disposed = true;
  }

  private async save(): Promise<void> {
    if (!this.changed) return;
    this.changed = false;
    try {
      writeFileAtomically(this.path, this.exportDatabase());
    } catch (error) {
      this.changed = true;
      const failure = new Error(`Saving the memory store to ${this.path} failed: ${(error as Error).message}`, { cause: error });
      this.onError?.(failure);
      throw failure;
    }
  }
}
