import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import type { Database, SqlJsStatic } from 'sql.js';
import { redactDeep, redactSecrets, redactSecretsMany } from '../shared/secrets';
import { compactStore, type CompactionResult } from './compaction';
import { foldHeldDatabase } from './heldFold';
import { tryAcquireSnapshotLock } from './snapshotLock';
import { listJournals, type BadJournalLine, type JournalWriter } from './journal';
import { LiveDatabase } from './liveDatabase';
import { applyInTransaction, loadDatabase, type DamageReport, type LoadedDatabase } from './loadDatabase';
import { applyOp, settleDeferred, type StoreOp, type TurnOp } from './operations';
import { defersWork, removesText } from './operationRegistry';
import { KeptCounts } from './keptCounts';
import { OwnJournal } from './ownJournal';
import { listSessions, sessionsToCool, summaryOf, type SessionRecord } from './sessionRepository';
import { QuietWork } from './quietWork';
import { removeStaleTempFiles } from './snapshotFile';
import { batchLabelCleaner, turnOpOf, withTokens } from './turnInput';
import { loadSqlJs } from './sqlJs';
import { looksLikeStore, storeLayout, type StoreLayout } from './storeLayout';
import { ForgottenSessionError, NotAStoreError, type MemoryStoreOptions, type RecordTurnInput, type RemovedTurns, type StoreStats } from './storeTypes';
import { countSessions, countTurns, findTurn, indexTurns, insertTurn, insertTurns, recentTurnsOfSession, turnsOfSession, turnsOfSessionAfter, uncountedTokens, type TurnRecord } from './turnRepository';

export { describeLoss, type DamageReport } from './loadDatabase';
export type { BadJournalLine } from './journal';
export type { SessionRecord } from './sessionRepository';
export { ForgottenSessionError, NotAStoreError, type MemoryStoreOptions, type RecordTurnInput, type RemovedTurns, type StoreStats } from './storeTypes';

/**
 * The memory store: one sql.js database in memory; every write is an operation applied here and
 * appended to this process's journal (see journal.ts); snapshots fold the journals in, under a lock.
 * Two windows, or a window and a CLI import, can write at once and nothing is lost.
 */
export class MemoryStore {
  private readonly journal: OwnJournal;
  private readonly forgetListeners: ((removed: RemovedTurns) => void)[] = [];
  /** The turn and session counts and the newest turns of the sessions in use, kept exact by our writes. */
  private readonly counts = new KeptCounts();
  private readonly changeListeners: ((kinds: ReadonlySet<StoreOp['kind']>) => void)[] = [];
  private readonly quiet: QuietWork;
  /** The database in memory, kept up with the disk (other writers' journals, rebuilds after damage). */
  private readonly live: LiveDatabase;

  private constructor(
    readonly layout: StoreLayout,
    private readonly options: MemoryStoreOptions,
    readonly schemaVersion: number,
    /** Set when the snapshot was damaged at open and set aside. */
    private readonly openDamage: DamageReport | undefined,
    loaded: LoadedDatabase,
    sql: SqlJsStatic,
  ) {
    this.journal = new OwnJournal(layout.folder, (error) => options.onWriteError?.(error), !options.readOnly && !options.writeOnDemand);
    this.quiet = new QuietWork(options.indexDelayMs ?? 2000, () => this.indexPending());
    const { journal, quiet, counts } = this;
    this.live = new LiveDatabase(loaded, { sql, layout, journal, quiet, counts, now: () => this.now, indexPending: () => this.indexPending(), onDamage: options.onDamage });
  }

  private get db(): Database {
    return this.live.db;
  }

  /**
   * Opens the store: the newest trustworthy generation plus the journals (see loadDatabase.ts). A read-only
   * open of a folder that holds no store creates nothing and says so; another program's SQLite file is refused.
   */
  static async open(options: MemoryStoreOptions): Promise<MemoryStore> {
    const layout = storeLayout(options.folder);
    const now = options.now ?? (() => new Date());
    if (options.writeOnDemand) options = { ...options, readOnly: false };
    if (options.readOnly && !looksLikeStore(layout.folder)) throw new NotAStoreError(layout.folder, existsSync(layout.folder));
    if (!options.readOnly && !options.writeOnDemand && existsSync(layout.folder)) {
      removeStaleTempFiles(layout.snapshot);
      removeStaleTempFiles(layout.manifest);
    }
    const sql = await loadSqlJs(options.wasmPath);
    const loaded = loadDatabase(sql, layout.folder, now(), { quarantine: true });
    if (!options.readOnly && !options.writeOnDemand) mkdirSync(layout.folder, { recursive: true });
    return new MemoryStore(layout, options, loaded.schemaVersion, loaded.damage, loaded, sql);
  }

  /** Set when a snapshot was found damaged (at open, or at a read since) and the memory rebuilt without it. */
  get damage(): DamageReport | undefined {
    return this.live.lateDamage ?? this.openDamage;
  }

  /** Journal lines skipped because they did not verify (damaged bytes, torn writes): each is reported, none applied. */
  get skippedJournalLines(): readonly BadJournalLine[] {
    return this.live.badLines;
  }

  private get now(): Date {
    return (this.options.now ?? (() => new Date()))();
  }

  /** Stores a turn; `created` is false when a turn with this id was already stored (nothing changes then). */
  recordTurn(input: RecordTurnInput): TurnRecord & { readonly created: boolean } {
    const journal = this.writableJournal();
    // Secrets are never stored, not even as conversation history, nor in a session name, id or ref (turnOpOf).
    const text = redactSecrets(input.text.toWellFormed());
    const op = turnOpOf(input, text, this.options.tokens.count(text), this.now, 'chat');
    // Indexing waits for a quiet moment (quietWork.ts), or the next search.
    const stored = insertTurn(this.db, op, this.quiet.deferIndex);
    if (!stored) {
      const existing = findTurn(this.db, op.id);
      if (!existing) throw new ForgottenSessionError(op.sessionId);
      return { ...existing, created: false };
    }
    // The journal write runs on the thread pool; failures reach onWriteError and are retried by flush().
    journal.append(op).catch(() => undefined);
    this.counts.recorded(stored);
    this.changed(new Set(['turn']));
    return { ...stored, created: true };
  }

  /**
   * Stores a batch of history turns (an import) in one transaction; their tokens are counted when a prompt first needs
   * them (counting was most of an import's time). True: created; false: already stored; a forgotten session throws.
   */
  recordTurns(inputs: readonly RecordTurnInput[], idOf?: (turn: TurnOp, index: number) => string): boolean[] {
    const journal = this.writableJournal();
    const texts = redactSecretsMany(inputs.map((input) => input.text.toWellFormed()));
    const clean = batchLabelCleaner(inputs);
    // `idOf` names a turn that came without an id from what will be stored (its text and labels without secrets), so
    // the caller need not scan the batch for secrets a second time.
    const ops = inputs.map((input, index) => {
      const op = turnOpOf(input, texts[index], uncountedTokens, this.now, 'import', clean);
      return idOf && input.id === undefined ? { ...op, id: idOf(op, index) } : op;
    });
    const created = insertTurns(this.db, ops, this.quiet.deferIndex).map((turn, index) => {
      if (!turn && !findTurn(this.db, ops[index].id)) throw new ForgottenSessionError(ops[index].sessionId);
      if (turn) journal.append(ops[index]).catch(() => undefined);
      if (turn) this.counts.recorded(turn);
      return turn !== undefined;
    });
    if (created.some(Boolean)) this.changed(new Set(['turn']));
    return created;
  }

  /**
   * Brings the search index up to date with every recorded turn (runs before any search or removal), and finishes
   * what operations left for a quiet moment (reports to write, fact uses to add).
   */
  indexPending(): void {
    indexTurns(this.db, this.quiet.take());
    settleDeferred(this.db);
  }

  /** Reads the database directly: for the core's own repositories (facts, recall), never for the host. */
  read<T>(reader: (db: Database) => T): T {
    return this.live.guard(() => reader(this.db));
  }

  /** Applies an operation here and journals it; the journal write's failures reach onWriteError. */
  applyOperation<Op extends StoreOp>(unredacted: Op): boolean {
    return this.applyOperations([unredacted]) > 0;
  }

  /** Applies operations in order (several in one transaction, e.g. a team file read), journals them, tells listeners once. */
  applyOperations(unredacted: readonly StoreOp[]): number {
    const journal = this.writableJournal();
    // Every string an operation carries (a summary, a lesson's evidence, a fact's words) is scrubbed of secrets.
    const ops = unredacted.map((op) => redactDeep(op));
    // A removal unindexes rows, so the index must be whole first; other operations leave the deferred batch alone
    // (indexing it here would put an FTS merge on the reply path of every turn).
    if (ops.some((op) => op.kind === 'forgetSessions' || op.kind === 'coolSessions' || op.kind === 'forgetTurns')) this.indexPending();
    if (ops.some(removesText)) this.live.removalsApplied = true;
    const changed = ops.length === 1 ? Number(applyOp(this.db, ops[0])) : applyInTransaction(this.db, ops);
    for (const op of ops) journal.append(op).catch(() => undefined);
    const kinds = new Set(changed > 0 ? ops.map((op) => op.kind) : []);
    if ([...kinds].some(defersWork)) this.quiet.soon();
    for (const kind of kinds) this.counts.applied(kind);
    if (changed > 0) this.changed(kinds);
    return changed;
  }

  /** Called after every change, with the kinds of operation: a write of ours, or what another writer journaled. */
  onDidChange(listener: (kinds: ReadonlySet<StoreOp['kind']>) => void): void {
    this.changeListeners.push(listener);
  }

  private changed(kinds: ReadonlySet<StoreOp['kind']>): void {
    for (const listener of this.changeListeners) listener(kinds);
  }

  listSessions(): SessionRecord[] {
    return listSessions(this.db);
  }

  /** Sets a session's rolling summary (what it cools to after the retention period). */
  setSummary(sessionId: string, summary: string, uptoSeq?: number): boolean {
    return this.applyOperation({ kind: 'summary', id: randomUUID(), sessionId, summary, at: this.now.toISOString(), uptoSeq });
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
    this.applyOperation({ kind: 'forgetSessions', id: randomUUID(), sessionIds: [...sessionIds], at: this.now.toISOString() });
    for (const listener of this.forgetListeners) listener({ sessionIds, turnIds });
    await this.purgeJournals();
    return before - countTurns(this.db);
  }

  /** Single turns ("forget what I just said") leave the store the same way a conversation does, vectors included. */
  async forgetTurns(sessionId: string, turnIds: readonly string[]): Promise<number> {
    const before = countTurns(this.db);
    this.applyOperation({ kind: 'forgetTurns', id: randomUUID(), turnIds: [...turnIds], at: this.now.toISOString() });
    for (const listener of this.forgetListeners) listener({ sessionIds: [], turnIds });
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
    this.applyOperation({ kind: 'coolSessions', id: randomUUID(), sessionIds, at: this.now.toISOString() });
    for (const listener of this.forgetListeners) listener({ sessionIds, turnIds });
    await this.purgeJournals();
    return sessionIds;
  }

  /** Called with the turns removed (forgotten or cooled), for stores kept outside sql.js (the vector index). */
  onDidForget(listener: (removed: RemovedTurns) => void): void {
    this.forgetListeners.push(listener);
  }

  /**
   * The deletion seam's second half, for any removal (a conversation, a fact): our journal is rotated out and two
   * compactions run, so neither the snapshot nor the previous generation nor a kept journal holds the removed text.
   */
  async purgeJournals(): Promise<void> {
    await this.flush();
    await this.snapshot({ rotate: true });
    await this.compact();
  }

  /** Applies what other writers (windows, CLI imports) journaled since the last call; returns how many changes. */
  syncFromOtherWriters(): number {
    const { applied, kinds } = this.live.syncFromOtherWriters();
    if (applied > 0) this.changed(kinds);
    return applied;
  }

  turns(sessionId: string): TurnRecord[] {
    return withTokens(this.live.guard(() => turnsOfSession(this.db, sessionId.toWellFormed())), this.options.tokens);
  }

  /** A session's turns after `afterSeq` (what a summary does not cover yet), oldest first. */
  turnsAfter(sessionId: string, afterSeq: number): TurnRecord[] {
    return withTokens(this.counts.tails.after(sessionId, afterSeq, () => turnsOfSessionAfter(this.db, sessionId, afterSeq)), this.options.tokens);
  }

  /** How many turns a session holds (counted once, then kept by our writes: it runs on every prompt). */
  turnCount(sessionId: string): number {
    return this.counts.tails.count(sessionId, () => Number(this.db.exec('SELECT COUNT(*) FROM turns WHERE session_id = ?', [sessionId])[0]?.values[0]?.[0] ?? 0));
  }

  /** The last `limit` turns of a session, oldest first (kept for the sessions in use: a turn asks several times). */
  recentTurns(sessionId: string, limit: number): TurnRecord[] {
    return withTokens(this.counts.tails.recent(sessionId, limit, (wanted) => recentTurnsOfSession(this.db, sessionId, wanted)), this.options.tokens);
  }

  /**
   * The reads every prompt needs besides the recent turns: this session's rolling summary, and what exists
   * outside the prompt for the L1 lines. Kept to indexed lookups and counts: it runs on every turn.
   */
  contextReads(sessionId: string): { summary?: string; otherSessions: number; storedTurns: number } {
    return {
      summary: summaryOf(this.db, sessionId).summary,
      otherSessions: Math.max(0, this.counts.sessionCount(this.db) - 1),
      storedTurns: this.counts.totalTurns(this.db),
    };
  }

  /** A full copy of the database: what a naive save-per-turn would write. Only the benchmark needs it. */
  exportForComparison(): Uint8Array {
    settleDeferred(this.db);
    return this.db.export();
  }

  stats(): StoreStats {
    const { schemaVersion, layout } = this;
    return this.live.guard(() => ({ turns: countTurns(this.db), sessions: countSessions(this.db), schemaVersion, folder: layout.folder, journals: listJournals(layout.folder).length }));
  }

  /** Resolves once every change made so far is durable in the journal. */
  async flush(): Promise<void> {
    await this.journal.flush();
  }

  /** Drops the changes that could not be written (a read-only disk) and rebuilds from the disk: "not stored" stays true. */
  discardUnwritten(): void {
    if (this.journal.discardUnwritten() > 0) this.live.reload();
  }

  /** Ids of the operations recorded here but not yet on disk (a failed write waits to be retried). */
  unwrittenOperationIds(): string[] {
    return this.journal.pendingOps.map((op) => op.id);
  }

  /** This process's journal file (in the store's journals/ folder), if it writes. */
  get journalName(): string | undefined {
    return this.journal.name;
  }

  /** Bytes in our journal not yet known to be in a snapshot. */
  get unsnapshottedBytes(): number {
    return this.journal.unsnapshottedBytes;
  }

  /**
   * Folds all journals into a new snapshot generation (under the lock; skipped if another process holds it),
   * then starts a fresh journal if ours has grown large, so loading stays fast.
   */
  snapshot(options: { rotate?: boolean } = {}): Promise<CompactionResult> {
    return this.journal.snapshot(() => this.compact(), { rotate: options.rotate, rotateBytes: this.options.rotateJournalBytes ?? 4 * 1024 * 1024 });
  }

  /** Makes every change durable and seals our journal: the next snapshot may fold it in and remove it. */
  async close(options: { snapshot?: boolean } = {}): Promise<void> {
    try {
      const { wrote, unwritten } = await this.journal.close();
      this.indexPending();
      if (unwritten) throw unwritten;
      if (options.snapshot && wrote) await this.foldOrCompact();
    } finally {
      this.db.close();
    }
  }

  /**
   * The closing snapshot: this database already holds every journal, so it is folded as it is (heldFold.ts) instead of
   * being loaded again, when nothing calls for the full path (damage, a removal, a line of an unknown kind, a store that
   * compacts in a worker to keep its thread free). The lock is held from reading the other writers' journals to the install.
   */
  private async foldOrCompact(): Promise<CompactionResult> {
    const foldable = (): boolean => !this.options.compact && !this.damage && !this.live.removalsApplied && !this.live.badLines.some((line) => line.unknownKind);
    if (foldable()) {
      const release = tryAcquireSnapshotLock(this.layout.folder);
      if (!release) return this.compact();
      try {
        this.syncFromOtherWriters();
        this.indexPending();
        const held = { db: this.db, offsets: this.live.offsets, ownJournals: this.journal.ownNames, damagedJournals: new Set(this.live.badLines.map((line) => line.journal)) };
        const folded = foldable() ? await foldHeldDatabase(this.layout.folder, this.options.wasmPath, held, this.now) : undefined;
        if (folded) return folded;
      } finally {
        release();
      }
    }
    return this.compact();
  }

  private compact(): Promise<CompactionResult> {
    return (this.options.compact ?? compactStore)(this.layout.folder, this.options.wasmPath);
  }

  private writableJournal(): JournalWriter {
    if (this.options.writeOnDemand) this.startWriting();
    return this.journal.writable(this.options.readOnly ? 'This memory store was opened read-only' : 'This memory store is closed');
  }

  /** The first write of a store opened with writeOnDemand: what a writable open does first, then the journal. */
  private startWriting(): void {
    if (this.journal.name) return;
    mkdirSync(this.layout.folder, { recursive: true });
    removeStaleTempFiles(this.layout.snapshot);
    removeStaleTempFiles(this.layout.manifest);
    this.journal.startWriting();
  }
}
