import type { CompactionResult } from './compaction';
import type { DamageReport } from './loadDatabase';
import type { Clock } from '../shared/clock';
import type { TokenCounter } from '../shared/tokenCounter';
import type { SessionSource, TurnRole } from './turnRepository';

/** The memory store's options, inputs, results and errors (the store itself is in memoryStore.ts). */

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
  readonly now?: Clock;
  /** Reads only: no journal is created, nothing can be recorded. */
  readonly readOnly?: boolean;
  /**
   * Opens as readOnly does (nothing is created on disk), and the first write starts this process's journal: a session
   * that only reads leaves no trace, one that writes loses nothing.
   */
  readonly writeOnDemand?: boolean;
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

/** What the store itself holds; the domains' counts are added by context/memoryStats.ts. */
export interface StoreStats {
  readonly turns: number;
  readonly sessions: number;
  readonly schemaVersion: number;
  readonly folder: string;
  readonly journals: number;
}
