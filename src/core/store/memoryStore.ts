import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import type { Database, SqlJsStatic } from 'sql.js';
import type { TokenCounter } from '../context/tokenCounter';
import { compactStore, type CompactionResult } from './compaction';
import { readManifest } from './generations';
import { JournalWriter, listJournals, readJournal, sealJournal, type BadJournalLine } from './journal';
import { applyInTransaction, loadDatabase, type DamageReport, type LoadedDatabase } from './loadDatabase';
import { applyOp, type StoreOp, type TurnOp } from './operations';
import { listSessions, sessionsToCool, summaryOf, type SessionRecord } from './sessionRepository';
import { removeStaleTempFiles } from './snapshotFile';
import { loadSqlJs } from './sqlJs';
import { looksLikeStore, storeLayout, type StoreLayout } from './storeLayout';
import { memoriesUsed } from '../context/reportRepository';
import { countBehaviors } from '../memory/behaviors';
import { redactDeep, redactSecrets } from '../shared/secrets';
import { countByStatus } from '../memory/statementRepository';
import { searchTurnsBm25, type TurnHit, type TurnSearchOptions } from '../recall/turnSearch';
import { countSessions, countTurns, findTurn, indexTurns, recentTurnsOfSession, turnsOfSession, type SessionSource, type TurnRecord, type TurnRole } from './turnRepository';

export type { DamageReport } from './loadDatabase';
export type { BadJournalLine } from './journal';

/** A read-only command was pointed at a folder that holds no memory store: nothing is created there. */
export class NotAStoreError extends Error {
  constructor(readonly folder: string, exists: boolean) {
    super(
      exists
        ? `${folder} is not an Engram memory store (it holds no engram.sqlite, generations.json or journals/). Nothing was created there.`
        : `There is no Engram memory store at ${folder} (the folder does not exist). Nothing was created.`,
    );
    this.name = 'NotAStoreError';
  }
}
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
  /** Told when damage is found after opening (a read failed "malformed") and the memory was rebuilt without the file. */
  readonly onDamage?: (damage: DamageReport) => void;
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
  /** Journal lines that did not verify, found at open or while reading other writers' journals since. */
  private readonly badLines: BadJournalLine[];
  /** The manifest as last looked at: a compaction that removed a journal we had not read to its end forces a reload. */
  private manifestSeen = '';
  private generationSeen = 0;
  /** Set when the damage was found after open; the first one found at open is in `damage`. */
  private lateDamage: DamageReport | undefined;

  private constructor(
    private db: Database,
    readonly layout: StoreLayout,
    private readonly options: MemoryStoreOptions,
    readonly schemaVersion: number,
    /** How far this database has applied each journal, ours included. */
    private readonly offsets: Map<string, number>,
    /** Set when the snapshot was damaged at open and set aside. */
    private readonly openDamage: DamageReport | undefined,
    loaded: LoadedDatabase,
    private readonly sql: SqlJsStatic,
  ) {
    this.badLines = [...loaded.badLines];
    this.noteManifest();
    if (!options.readOnly) this.journal = JournalWriter.create(layout.folder, (error) => options.onWriteError?.(error));
  }

  /**
   * Opens the store: the newest trustworthy generation plus the journals (see loadDatabase.ts). A read-only
   * open of a folder that holds no store creates nothing and says so; another program's SQLite file is refused.
   */
  static async open(options: MemoryStoreOptions): Promise<MemoryStore> {
    const layout = storeLayout(options.folder);
    const now = options.now ?? (() => new Date());
    if (options.readOnly && !looksLikeStore(layout.folder)) throw new NotAStoreError(layout.folder, existsSync(layout.folder));
    if (!options.readOnly && existsSync(layout.folder)) {
      removeStaleTempFiles(layout.snapshot);
      removeStaleTempFiles(layout.manifest);
    }
    const sql = await loadSqlJs(options.wasmPath);
    const loaded = loadDatabase(sql, layout.folder, now(), { quarantine: true });
    if (!options.readOnly) mkdirSync(layout.folder, { recursive: true });
    return new MemoryStore(loaded.db, layout, options, loaded.schemaVersion, loaded.offsets, loaded.damage, loaded, sql);
  }

  /** Set when a snapshot was found damaged (at open, or at a read since) and the memory rebuilt without it. */
  get damage(): DamageReport | undefined {
    return this.lateDamage ?? this.openDamage;
  }

  /** Journal lines skipped because they did not verify (damaged bytes, torn writes): each is reported, none applied. */
  get skippedJournalLines(): readonly BadJournalLine[] {
    return this.badLines;
  }

  private get now(): Date {
    return (this.options.now ?? (() => new Date()))();
  }

  /** Stores a turn; `created` is false when a turn with this id was already stored (nothing changes then). */
  recordTurn(input: RecordTurnInput): TurnRecord & { readonly created: boolean } {
    const journal = this.writableJournal();
    // Secrets are never stored, not even as conversation history. A lone surrogate cannot be stored as UTF-8:
    // it becomes U+FFFD here, where the caller can see it, rather than silently in SQLite (where a session id
    // would then never be found again).
    const text = redactSecrets(input.text.toWellFormed());
    const op: TurnOp = {
      kind: 'turn',
      id: input.id ?? randomUUID(),
      sessionId: input.sessionId.toWellFormed(),
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
    return this.guard(() => reader(this.db));
  }

  /** Applies an operation here and journals it; the journal write's failures reach onWriteError. */
  applyOperation(op: StoreOp): boolean {
    return this.apply(op);
  }

  /** Applies an operation here and journals it; the journal write's failures reach onWriteError. */
  private apply(unredacted: StoreOp): boolean {
    const journal = this.writableJournal();
    // Every string an operation carries (a summary, a lesson's evidence, a fact's words) is scrubbed of secrets.
    const op = redactDeep(unredacted);
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

  /**
   * Rewrites the removed text out of our journal and the snapshots: a new journal, then two compactions, so
   * that the previous generation (kept for recovery) no longer holds the text either.
   */
  private async purgeJournals(): Promise<void> {
    await this.flush();
    await this.snapshot({ rotate: true });
    await (this.options.compact ?? compactStore)(this.layout.folder, this.options.wasmPath);
  }

  /** Applies what other writers (windows, CLI imports) journaled since the last call; returns how many changes. */
  syncFromOtherWriters(): number {
    if (this.missedRemovedJournal()) {
      try {
        return this.reload();
      } catch {
        // Compactions kept replacing generations under the reload: look again at the next sync.
        this.manifestSeen = '';
      }
    }
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
      this.badLines.push(...read.badLines);
      this.offsets.set(name, read.offset);
    }
    return applied;
  }

  private noteManifest(): void {
    this.manifestSeen = manifestStamp(this.layout.manifest);
    this.generationSeen = readManifest(this.layout)?.current?.generation ?? this.generationSeen;
  }

  /**
   * Whether a compaction since our last look removed a journal before we read all of it (a window idle across
   * two compactions of other windows). Costs one stat when nothing changed.
   */
  private missedRemovedJournal(): boolean {
    const stamp = manifestStamp(this.layout.manifest);
    if (stamp === this.manifestSeen) return false;
    const manifest = readManifest(this.layout);
    const seen = this.generationSeen;
    this.noteManifest();
    if (!manifest) return false;
    const newer = manifest.removed.filter((entry) => entry.generation > seen);
    const gap = seen > 0 && manifest.removed.length > 0 && manifest.removed[0].generation > seen + 1;
    const own = this.journal?.name;
    return gap || newer.some((entry) => entry.journals.some((journal) => journal.name !== own && (this.offsets.get(journal.name) ?? 0) < journal.size));
  }

  /**
   * Rebuilds the memory from the disk (the newest trustworthy generation and every journal), keeping what this
   * window has not yet written; returns the turns gained. Used when lines were missed, or a read found damage.
   */
  private reload(distrustCurrent?: string): number {
    const before = countTurns(this.db);
    const loaded = loadDatabase(this.sql, this.layout.folder, this.now, { quarantine: true, distrustCurrent });
    applyInTransaction(loaded.db, this.journal?.pendingOps ?? []);
    this.db.close();
    this.db = loaded.db;
    this.unindexed = [];
    this.offsets.clear();
    for (const [name, offset] of loaded.offsets) this.offsets.set(name, offset);
    this.badLines.push(...loaded.badLines);
    this.noteManifest();
    if (loaded.damage) {
      this.lateDamage = loaded.damage;
      this.options.onDamage?.(loaded.damage);
    }
    return countTurns(this.db) - before;
  }

  /** Runs a read; a "malformed" database found by it is set aside and rebuilt, then the read runs again. */
  private guard<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      const message = (error as Error).message ?? '';
      if (!/malformed|not a database|disk image/i.test(message)) throw error;
      this.reload(`a read failed: ${message}`);
      return read();
    }
  }

  turns(sessionId: string): TurnRecord[] {
    return this.guard(() => turnsOfSession(this.db, sessionId.toWellFormed()));
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
    return this.guard(() => searchTurnsBm25(this.db, query, options));
  }

  /** A full copy of the database: what a naive save-per-turn would write. Only the benchmark needs it. */
  exportForComparison(): Uint8Array {
    return this.db.export();
  }

  stats(): StoreStats {
    return this.guard(() => this.countEverything());
  }

  private countEverything(): StoreStats {
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

  /** Ids of the operations recorded here but not yet on disk (a failed write waits to be retried). */
  unwrittenOperationIds(): string[] {
    return (this.journal?.pendingOps ?? []).map((op) => op.id);
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
    try {
      let unwritten: unknown;
      if (journal) {
        // Changes that could not be written were never acknowledged; the journal is sealed all the same.
        await journal.flush().catch((error: unknown) => (unwritten = error));
        await journal.close();
        if (journal.size > 0) sealJournal(this.layout.folder, journal.name);
      }
      this.indexPending();
      if (unwritten) throw unwritten;
      if (options.snapshot && journal && journal.size > 0) {
        const compact = this.options.compact ?? compactStore;
        await compact(this.layout.folder, this.options.wasmPath);
      }
    } finally {
      this.db.close();
    }
  }


  private writableJournal(): JournalWriter {
    if (!this.journal) throw new Error(this.options.readOnly ? 'This memory store was opened read-only' : 'This memory store is closed');
    return this.journal;
  }
}

function manifestStamp(path: string): string {
  try {
    const stat = statSync(path, { bigint: true });
    return `${stat.ino}:${stat.mtimeNs}:${stat.size}`;
  } catch {
    return 'none';
  }
}
