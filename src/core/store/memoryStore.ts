import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Database, SqlJsStatic } from 'sql.js';
import type { TokenCounter } from '../context/tokenCounter';
import { migrate } from './migrations';
import { SnapshotSaver } from './snapshotSaver';
import { quarantine, readSnapshot, removeStaleTempFiles } from './snapshotFile';
import { loadSqlJs } from './sqlJs';
import { storeLayout, type StoreLayout } from './storeLayout';
import {
  countSessions,
  countTurns,
  findTurn,
  insertTurn,
  turnsOfSession,
  type SessionSource,
  type TurnRecord,
  type TurnRole,
} from './turnRepository';

export interface MemoryStoreOptions {
  /** The store folder (the extension's globalStorage, or the CLI's --db). */
  readonly folder: string;
  /** Path of sql.js's sql-wasm.wasm. */
  readonly wasmPath: string;
  readonly tokens: TokenCounter;
  readonly now?: () => Date;
  /** How long after a write the snapshot is saved; writes in between share one save. */
  readonly saveDelayMs?: number;
  /** Told about a save that failed; the memory stays in this process and the save is retried. */
  readonly onSaveError?: (error: Error) => void;
}

/** What happened to a damaged store file found at open. */
export interface DamageReport {
  readonly reason: string;
  /** Where the damaged file was moved; it is kept, never overwritten. */
  readonly keptAt: string;
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
  readonly facts: { readonly proposed: number; readonly confirmed: number; readonly retired: number };
  readonly behaviors: number;
  readonly memoriesUsed: number;
  readonly schemaVersion: number;
  readonly folder: string;
}

/**
 * The memory store: one sql.js database in memory, persisted to the store folder. Every write goes
 * through a method here, so the persistence behind it can change without touching any caller.
 */
export class MemoryStore {
  private constructor(
    private readonly db: Database,
    readonly layout: StoreLayout,
    private readonly saver: SnapshotSaver,
    private readonly tokens: TokenCounter,
    private readonly now: () => Date,
    readonly schemaVersion: number,
    /** Set when the store file was damaged at open and set aside. */
    readonly damage: DamageReport | undefined,
  ) {}

  static async open(options: MemoryStoreOptions): Promise<MemoryStore> {
    const layout = storeLayout(options.folder);
    const now = options.now ?? (() => new Date());
    mkdirSync(layout.folder, { recursive: true });
    removeStaleTempFiles(layout.snapshot);
    const sql = await loadSqlJs(options.wasmPath);
    const { db, damage } = openSnapshot(sql, layout, now());
    let version: number;
    try {
      version = migrate(db).to;
    } catch (error) {
      db.close();
      throw error;
    }
    const saver = new SnapshotSaver(layout.snapshot, () => db.export(), options.saveDelayMs ?? 1500, options.onSaveError);
    const store = new MemoryStore(db, layout, saver, options.tokens, now, version, damage);
    // A store rebuilt after damage is saved at once, so the folder holds a healthy file again.
    if (damage) saver.markChanged();
    return store;
  }

  /** Stores a turn; `created` is false when a turn with this id was already stored (nothing changes then). */
  recordTurn(input: RecordTurnInput): TurnRecord & { readonly created: boolean } {
    const turn = {
      id: input.id ?? randomUUID(),
      sessionId: input.sessionId,
      role: input.role,
      text: input.text,
      at: input.at ?? this.now().toISOString(),
      ref: input.ref,
      tokens: this.tokens.count(input.text),
      source: input.source ?? 'chat',
    };
    const created = insertTurn(this.db, turn);
    if (created) this.saver.markChanged();
    const stored = findTurn(this.db, turn.id);
    if (!stored) throw new Error(`The turn ${turn.id} was not stored`);
    return { ...stored, created };
  }

  turns(sessionId: string): TurnRecord[] {
    return turnsOfSession(this.db, sessionId);
  }

  stats(): StoreStats {
    return {
      turns: countTurns(this.db),
      sessions: countSessions(this.db),
      // Facts, behaviours and the retrieval log arrive with their own schema steps; until then there are none.
      facts: { proposed: 0, confirmed: 0, retired: 0 },
      behaviors: 0,
      memoriesUsed: 0,
      schemaVersion: this.schemaVersion,
      folder: this.layout.folder,
    };
  }

  /** Saves now if anything changed since the last save. */
  flush(): Promise<void> {
    return this.saver.flush();
  }

  async close(): Promise<void> {
    await this.saver.dispose();
    this.db.close();
  }
}

function openSnapshot(sql: SqlJsStatic, layout: StoreLayout, now: Date): { db: Database; damage?: DamageReport } {
  const read = readSnapshot(layout.snapshot);
  if (read.kind === 'missing') return { db: new sql.Database() };
  if (read.kind === 'damaged') {
    return { db: new sql.Database(), damage: { reason: read.reason, keptAt: quarantine(layout.snapshot, now) } };
  }
  let db: Database | undefined;
  try {
    db = new sql.Database(read.bytes);
    const check = db.exec('PRAGMA quick_check');
    const verdict = String(check[0]?.values[0]?.[0] ?? '');
    if (verdict !== 'ok') throw new Error(verdict || 'quick_check gave no answer');
    return { db };
  } catch (error) {
    db?.close();
    const reason = `it is damaged (${(error as Error).message})`;
    return { db: new sql.Database(), damage: { reason, keptAt: quarantine(layout.snapshot, now) } };
  }
}
