import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Database } from 'sql.js';
import type { TokenCounter } from '../context/tokenCounter';
import { compactStore, type CompactionResult } from './compaction';
import { JournalWriter, listJournals, readJournal, sealJournal } from './journal';
import { applyInTransaction, loadDatabase, type DamageReport } from './loadDatabase';
import { applyOp, type StoreOp, type TurnOp } from './operations';
import { listSessions, sessionsToCool, summaryOf, type SessionRecord } from './sessionRepository';
import { removeStaleTempFiles } from './snapshotFile';
import { loadSqlJs } from './sqlJs';
import { storeLayout, type StoreLayout } from './storeLayout';
import { memoriesUsed } from '../context/reportRepository';
import { countBehaviors } from '../memory/behaviors';
import { redactSecrets } from '../shared/secrets';
import { countByStatus } from '../memory/statementRepository';
import { searchTurnsBm25, type TurnHit, type TurnSearchOptions } from '../recall/turnSearch';
import { countSessions, countTurns, findTurn, indexTurns, recentTurnsOfSession, turnsOfSession, type SessionSource, type TurnRecord, type TurnRole } from './turnRepository';

export type { DamageReport } from './loadDatabase';
export type { SessionRecord } from './sessionRepository';

export interface RemovedTurns {
  readonly sessionIds: readonly string[];
  readonly turnIds: readonly string[];
}

/** A turn was recorded for a conversation the owner told Engram to forget; it is not stored. */
export class ForgottenSessionError extends Error {
  constructor(readonly sessionId: string) {
    super(`The conversation ${sessionId} was forgotten; nothing more is recorded for it.`);
    this.name = 'ForgottenSessionError';
  }
}

export interface MemoryStoreOptions {
  /** The store folder (the extension's globalStorage, or the CLI's --db). */
  readonly folder: string;
  /** Path of sql.js's sql-wasm.wasm. */
  readonly wasmPath: string;
  readonly tokens: TokenCounter;
  readonly now?: () => Date;
  /** Reads only: no journal is created, nothing can be recorded. */
  readonly readOnly?: boolean;
  /** Told about a write that failed; the change stays in memory and is written again on the next flush. */
  readonly onWriteError?: (error: Error) => void;
  /** How snapshots are written; the extension runs them in a worker thread. Default: in this thread. */
  readonly compact?: (folder: string, wasmPath: string) => Promise<CompactionResult>;
  /** How long after a recorded turn its search indexing waits for a quiet moment. */
  readonly indexDelayMs?: number;
  /** Start a new journal once ours passes this size and a snapshot covers it. */
  readonly rotateJournalBytes?: number;
}

export interface RecordTurnInput {
  readonly sessionId: string;
  readonly role: TurnRole;
  readonly text: string;
  readonly at?: string;
  readonly ref?: string;
  readonly source?: SessionSource;
  /** A caller-chosen id makes the write idempotent across retries and replays. */
  readonly id?: string;
}

export interface StoreStats {
  readonly turns: number;
  readonly sessions: number;
  readonly facts: { readonly proposed: number; readonly confirmed: number; readonly retired: number; readonly rejected: number };
  readonly behaviors: number;
  readonly memoriesUsed: number;
  /** "memories recording any use: X of N" (confirmed facts some prompt or tool carried). */
  readonly memoriesRecordingUse: string;
  readonly schemaVersion: number;
  readonly folder: string;
  readonly journals: number;
}

/**
 * The memory store: one sql.js database in memory; every write is an operation applied here and
 * appended to this process's journal (see journal.ts); snapshots fold the journals in, under a lock.
 * Two windows, or a window and a CLI import, can write at once and nothing is lost.
 */
export class MemoryStore {
  private journal: JournalWriter | undefined;
  private readonly forgetListeners: ((removed: RemovedTurns) => void)[] = [];
  private unindexed: number[] = [];
  /** How much of which journal of ours the last snapshot covered. */
  private snapshotCovered: { journal: string; bytes: number } | undefined;
  private indexTimer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly db: Database,
    readonly layout: StoreLayout,
    private readonly options: MemoryStoreOptions,
    readonly schemaVersion: number,
    /** How far this database has applied each journal, ours included. */
    private readonly offsets: Map<string, number>,
    /** Set when the snapshot was damaged at open and set aside. */
    readonly damage: DamageReport | undefined,
  ) {
    if (!options.readOnly) this.journal = JournalWriter.create(layout.folder, (error) => options.onWriteError?.(error));
  }

  static async open(options: MemoryStoreOptions): Promise<MemoryStore> {
    const layout = storeLayout(options.folder);
    const now = options.now ?? (() => new Date());
    mkdirSync(layout.folder, { recursive: true });
    if (!options.readOnly) removeStaleTempFiles(layout.snapshot);
    const sql = await loadSqlJs(options.wasmPath);
    const loaded = loadDatabase(sql, layout.folder, now());
    return new MemoryStore(loaded.db, layout, options, loaded.schemaVersion, loaded.offsets, loaded.damage);
  }

  private get now(): Date {
    return (this.options.now ?? (() => new Date()))();
  }

  /** Stores a turn; `created` is false when a turn with this id was already stored (nothing changes then). */
  recordTurn(input: RecordTurnInput): TurnRecord & { readonly created: boolean } {
    const journal = this.writableJournal();
    // Secrets are never stored, not even as conversation history.
    const text = redactSecrets(input.text);
    const op: TurnOp = {
      kind: 'turn',
      id: input.id ?? randomUUID(),
      sessionId: input.sessionId,
      role: input.role,
      text,
      at: input.at ?? this.now.toISOString(),
      ref: input.ref,
      tokens: this.options.tokens.count(text),
      source: input.source ?? 'chat',
    };
    // Indexing waits: FTS4 merges its segments now and then, once taking 200 ms at 100k turns, and that
    // must not happen while the person waits for a reply. It runs at the next quiet moment or search.
    const created = applyOp(this.db, op, (rowid) => this.deferIndex(rowid));
    // The journal write runs on the thread pool; failures reach onWriteError and are retried by flush().
    if (created) journal.append(op).catch(() => undefined);
    else if (!findTurn(this.db, op.id)) throw new ForgottenSessionError(op.sessionId);
    const stored = findTurn(this.db, op.id);
    if (!stored) throw new Error(`The turn ${op.id} was not stored`);
    return { ...stored, created };
  }

  private deferIndex(rowid: number): void {
    this.unindexed.push(rowid);
    if (this.indexTimer) return;
    this.indexTimer = setTimeout(() => this.indexPending(), this.options.indexDelayMs ?? 2000);
    this.indexTimer.unref?.();
  }

  /** Brings the search index up to date with every recorded turn (runs before any search or removal). */
  indexPending(): void {
    if (this.indexTimer) clearTimeout(this.indexTimer);
    this.indexTimer = undefined;
    const rowids = this.unindexed;
    this.unindexed = [];
    indexTurns(this.db, rowids);
  }

  /** Reads the database directly: for the core's own repositories (facts, recall), never for the host. */
  read<T>(reader: (db: Database) => T): T {
    return reader(this.db);
  }

  /** Applies an operation here and journals it; the journal write's failures reach onWriteError. */
  applyOperation(op: StoreOp): boolean {
    return this.apply(op);
  }

  /** Applies an operation here and journals it; the journal write's failures reach onWriteError. */
  private apply(op: StoreOp): boolean {
    const journal = this.writableJournal();
    this.indexPending();
    const changed = applyOp(this.db, op);
    journal.append(op).catch(() => undefined);
    return changed;
  }

  listSessions(): SessionRecord[] {
    return listSessions(this.db);
  }

  /** Sets a session's rolling summary (what it cools to after the retention period). */
  setSummary(sessionId: string, summary: string, uptoSeq?: number): boolean {
    return this.apply({ kind: 'summary', id: randomUUID(), sessionId, summary, at: this.now.toISOString(), uptoSeq });
  }

  /** The rolling summary of a session and the seq of the last turn it covers. */
  summaryOf(sessionId: string): { summary?: string; uptoSeq: number } {
    return summaryOf(this.db, sessionId);
  }

  /**
   * The deletion seam: a forgotten conversation leaves the table, the search index, the vectors (through
   * onDidForget listeners) and, once the journals are rewritten here, the disk. Returns turns removed.
   */
  async forgetSessions(sessionIds: readonly string[]): Promise<number> {
    const before = countTurns(this.db);
    const turnIds = sessionIds.flatMap((sessionId) => this.turns(sessionId).map((turn) => turn.id));
    this.apply({ kind: 'forgetSessions', id: randomUUID(), sessionIds: [...sessionIds], at: this.now.toISOString() });
    for (const listener of this.forgetListeners) listener({ sessionIds, turnIds });
    await this.purgeJournals();
    return before - countTurns(this.db);
  }

  /** Forgets every conversation. */
  forgetEverything(): Promise<number> {
    return this.forgetSessions(this.listSessions().map((session) => session.id));
  }

  /** Retention: sessions quiet for `days` cool to their summary; a session without one keeps its text. */
  async applyRetention(days: number): Promise<string[]> {
    const cutoff = new Date(this.now.getTime() - days * 86_400_000).toISOString();
    const sessionIds = sessionsToCool(this.db, cutoff);
    if (sessionIds.length === 0) return [];
    const turnIds = sessionIds.flatMap((sessionId) => this.turns(sessionId).map((turn) => turn.id));
    this.apply({ kind: 'coolSessions', id: randomUUID(), sessionIds, at: this.now.toISOString() });
    for (const listener of this.forgetListeners) listener({ sessionIds, turnIds });
    await this.purgeJournals();
    return sessionIds;
  }

  /** Called with the turns removed (forgotten or cooled), for stores kept outside sql.js (the vector index). */
  onDidForget(listener: (removed: RemovedTurns) => void): void {
    this.forgetListeners.push(listener);
  }

  /** Rewrites the removed text out of our journal and the snapshot: a new journal, then a compaction. */
  private async purgeJournals(): Promise<void> {
    await this.flush();
    await this.snapshot({ rotate: true });
  }

  /** Applies what other writers (windows, CLI imports) journaled since the last call; returns how many changes. */
  syncFromOtherWriters(): number {
    const own = this.journal?.name;
    let applied = 0;
    for (const name of listJournals(this.layout.folder)) {
      if (name === own) continue;
      const read = readJournal(this.layout.folder, name, this.offsets.get(name) ?? 0);
      // A removal unindexes rows, so with one in the batch the index is brought whole first and the batch's
      // turns are indexed as they come; otherwise they join the deferred batch.
      const removes = read.ops.some((op) => op.kind !== 'turn');
      if (removes) this.indexPending();
      applied += applyInTransaction(this.db, read.ops, removes ? undefined : (rowid) => this.deferIndex(rowid));
      this.offsets.set(name, read.offset);
    }
    return applied;
  }

  turns(sessionId: string): TurnRecord[] {
    return turnsOfSession(this.db, sessionId);
  }

  /** The last `limit` turns of a session, oldest first. */
  recentTurns(sessionId: string, limit: number): TurnRecord[] {
    return recentTurnsOfSession(this.db, sessionId, limit);
  }

  /**
   * The reads every prompt needs besides the recent turns: this session's rolling summary, and what exists
   * outside the prompt for the L1 lines. Kept to indexed lookups and counts: it runs on every turn.
   */
  contextReads(sessionId: string): { summary?: string; otherSessions: number; storedTurns: number } {
    const row = this.db.exec('SELECT summary FROM sessions WHERE id = ?', [sessionId])[0]?.values[0];
    return {
      summary: typeof row?.[0] === 'string' ? row[0] : undefined,
      otherSessions: Math.max(0, countSessions(this.db) - 1),
      storedTurns: countTurns(this.db),
    };
  }

  /** Full-text search over every stored turn (FTS4, BM25). */
  searchTurns(query: string, options: TurnSearchOptions = {}): TurnHit[] {
    this.indexPending();
    return searchTurnsBm25(this.db, query, options);
  }

  /** A full copy of the database: what a naive save-per-turn would write. Only the benchmark needs it. */
  exportForComparison(): Uint8Array {
    return this.db.export();
  }

  stats(): StoreStats {
    return {
      turns: countTurns(this.db),
      sessions: countSessions(this.db),
      facts: (({ proposed, confirmed, retired, rejected }) => ({ proposed, confirmed, retired, rejected }))(countByStatus(this.db)),
      behaviors: countBehaviors(this.db, 'approved'),
      memoriesUsed: memoriesUsed(this.db).used,
      memoriesRecordingUse: `${memoriesUsed(this.db).used} of ${memoriesUsed(this.db).of}`,
      schemaVersion: this.schemaVersion,
      folder: this.layout.folder,
      journals: listJournals(this.layout.folder).length,
    };
  }

  /** Resolves once every change made so far is durable in the journal. */
  async flush(): Promise<void> {
    await this.journal?.flush();
  }

  /** This process's journal file (in the store's journals/ folder), if it writes. */
  get journalName(): string | undefined {
    return this.journal?.name;
  }

  /** Bytes in our journal not yet known to be in a snapshot. */
  get unsnapshottedBytes(): number {
    if (!this.journal) return 0;
    return this.journal.size - (this.snapshotCovered?.journal === this.journal.name ? this.snapshotCovered.bytes : 0);
  }

  /**
   * Folds all journals into a new snapshot (under the lock; skipped if another process holds it), then
   * starts a fresh journal if ours has grown large, so loading stays fast.
   */
  async snapshot(options: { rotate?: boolean } = {}): Promise<CompactionResult> {
    await this.flush();
    const compact = this.options.compact ?? compactStore;
    let journal = this.journal;
    // Rotating first lets this very compaction remove the old journal (it is sealed and fully covered).
    if (options.rotate && journal && journal.size > 0) {
      this.journal = JournalWriter.create(this.layout.folder, (error) => this.options.onWriteError?.(error));
      await journal.close();
      sealJournal(this.layout.folder, journal.name);
      journal = undefined;
    }
    const coveredBytes = this.journal?.size ?? 0;
    const result = await compact(this.layout.folder, this.options.wasmPath);
    if (result.done && this.journal) this.snapshotCovered = { journal: this.journal.name, bytes: coveredBytes };
    if (result.done && journal && journal.size >= (this.options.rotateJournalBytes ?? 4 * 1024 * 1024)) {
      this.journal = JournalWriter.create(this.layout.folder, (error) => this.options.onWriteError?.(error));
      await journal.close();
      sealJournal(this.layout.folder, journal.name);
    }
    return result;
  }

  /** Makes every change durable and seals our journal: the next snapshot may fold it in and remove it. */
  async close(options: { snapshot?: boolean } = {}): Promise<void> {
    const journal = this.journal;
    this.journal = undefined;
    if (journal) {
      await journal.flush();
      await journal.close();
      if (journal.size > 0) sealJournal(this.layout.folder, journal.name);
    }
    this.indexPending();
    if (options.snapshot && journal && journal.size > 0) {
      const compact = this.options.compact ?? compactStore;
      await compact(this.layout.folder, this.options.wasmPath);
    }
    this.db.close();
  }

  private writableJournal(): JournalWriter {
    if (!this.journal) throw new Error(this.options.readOnly ? 'This memory store was opened read-only' : 'This memory store is closed');
    return this.journal;
  }
}
