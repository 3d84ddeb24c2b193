/**
 * Work a turn leaves for the next quiet moment: the search rows of new turns (an FTS4 segment merge once took 200 ms
 * at 100k turns, and must not happen while the person waits for a reply) and what operation kinds defer (reports,
 * fact uses). A timer runs it when nothing else does first: a search, a removal, an export, closing.
 */
export class QuietWork {
  private unindexed: number[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly delayMs: number,
    private readonly run: () => void,
  ) {}

  /** A new turn's row, to index at the quiet moment. */
  readonly deferIndex = (rowid: number): void => {
    this.unindexed.push(rowid);
    this.soon();
  };

  /** Runs the work at the next quiet moment (once, however often it is asked). */
  soon(): void {
    if (this.timer) return;
    this.timer = setTimeout(this.run, this.delayMs);
    this.timer.unref?.();
  }

  /** The rows waiting to be indexed, handed over now; the timer is cancelled, as the work is being done. */
  take(): number[] {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const rowids = this.unindexed;
    this.unindexed = [];
    return rowids;
  }

  /** Forgets the waiting rows: a reload rebuilt the database they belonged to. */
  drop(): void {
    this.unindexed = [];
  }
}
