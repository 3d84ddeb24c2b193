import type { Database, SqlJsStatic } from 'sql.js';
import { listJournals, readJournal, type BadJournalLine } from './journal';
import { applyInTransaction, loadDatabase, type DamageReport, type LoadedDatabase } from './loadDatabase';
import type { StoreOp } from './operations';
import { defersWork, removesText } from './operationRegistry';
import type { KeptCounts } from './keptCounts';
import type { OwnJournal } from './ownJournal';
import type { QuietWork } from './quietWork';
import { RemovedJournalWatch } from './removedJournalWatch';
import type { StoreLayout } from './storeLayout';
import { countTurns } from './turnRepository';

/** What the live database shares with its store: our journal, the deferred index work and the kept counts. */
export interface LiveDatabaseParts {
  readonly sql: SqlJsStatic;
  readonly layout: StoreLayout;
  readonly journal: OwnJournal;
  readonly quiet: QuietWork;
  readonly counts: KeptCounts;
  readonly now: () => Date;
  readonly indexPending: () => void;
  readonly onDamage?: (damage: DamageReport) => void;
}

/**
 * The store's sql.js database in memory, kept up with the disk: it takes in what other writers journaled, and is
 * rebuilt from the disk when lines were missed or a read finds the database damaged. Writes go through MemoryStore.
 */
export class LiveDatabase {
  private current: Database;
  /** How far this database has applied each journal, ours included. */
  readonly offsets: Map<string, number>;
  /** Journal lines that did not verify, found at open or while reading other writers' journals since. */
  readonly badLines: BadJournalLine[];
  /** A forget or retention reached this database since open: its closing snapshot takes the full path. */
  removalsApplied: boolean;
  /** Set when damage was found after open. */
  lateDamage: DamageReport | undefined;
  /** A compaction that removed a journal we had not read to its end forces a reload. */
  private readonly removals: RemovedJournalWatch;

  constructor(loaded: LoadedDatabase, private readonly parts: LiveDatabaseParts) {
    this.current = loaded.db;
    this.offsets = loaded.offsets;
    this.badLines = [...loaded.badLines];
    this.removalsApplied = loaded.removalsReplayed > 0;
    this.removals = new RemovedJournalWatch(parts.layout);
  }

  get db(): Database {
    return this.current;
  }

  /** Applies what other writers (windows, CLI imports) journaled since the last call; returns how many changes. */
  syncFromOtherWriters(): { applied: number; kinds: ReadonlySet<StoreOp['kind']> } {
    const { journal, quiet, counts, layout } = this.parts;
    if (this.removals.missedLines(this.offsets, (name) => journal.owns(name))) {
      try {
        return { applied: this.reload(), kinds: new Set() };
      } catch {
        // Compactions kept replacing generations under the reload: look again at the next sync.
        this.removals.forget();
      }
    }
    let applied = 0;
    const kinds = new Set<StoreOp['kind']>();
    for (const name of listJournals(layout.folder)) {
      if (journal.owns(name)) continue;
      const read = readJournal(layout.folder, name, this.offsets.get(name) ?? 0);
      // A removal unindexes rows, so with one in the batch the index is brought whole first and the batch's
      // turns are indexed as they come; otherwise they join the deferred batch.
      const removes = read.ops.some((op) => op.kind !== 'turn');
      if (read.ops.some(removesText)) this.removalsApplied = true;
      if (removes) this.parts.indexPending();
      const appliedHere = applyInTransaction(this.current, read.ops, removes ? undefined : quiet.deferIndex);
      counts.appliedFromOthers(read.ops, appliedHere, removes);
      applied += appliedHere;
      for (const op of read.ops) kinds.add(op.kind);
      if (read.ops.some((op) => defersWork(op.kind))) quiet.soon();
      this.badLines.push(...read.badLines);
      this.offsets.set(name, read.offset);
    }
    return { applied, kinds };
  }

  /**
   * Rebuilds the memory from the disk (the newest trustworthy generation and every journal), keeping what this
   * window has not yet written; returns the turns gained. Used when lines were missed, or a read found damage.
   */
  reload(distrustCurrent?: string): number {
    const before = countTurns(this.current);
    const loaded = loadDatabase(this.parts.sql, this.parts.layout.folder, this.parts.now(), { quarantine: true, distrustCurrent });
    applyInTransaction(loaded.db, this.parts.journal.pendingOps);
    this.current.close();
    this.current = loaded.db;
    this.parts.quiet.drop();
    this.parts.counts.recount();
    this.offsets.clear();
    for (const [name, offset] of loaded.offsets) this.offsets.set(name, offset);
    this.badLines.push(...loaded.badLines);
    this.removals.note();
    if (loaded.removalsReplayed > 0) this.removalsApplied = true;
    if (loaded.damage) {
      this.lateDamage = loaded.damage;
      this.parts.onDamage?.(loaded.damage);
    }
    return countTurns(this.current) - before;
  }

  /** Runs a read; a "malformed" database found by it is set aside and rebuilt, then the read runs again. */
  guard<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      const message = (error as Error).message ?? '';
      if (!/malformed|not a database|disk image/i.test(message)) throw error;
      this.reload(`a read failed: ${message}`);
      return read();
    }
  }
}
