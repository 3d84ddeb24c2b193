import type { Database } from 'sql.js';

/**
 * Every change to the store is an operation: applied to the in-memory database and appended to the writer's
 * journal. Each carries a unique id and applying it twice changes nothing, so journals can be replayed at load,
 * read by other windows, and folded into snapshots without bookkeeping of what was seen.
 *
 * The store knows only its own kinds (turns, summaries, forgetting, retention). Each domain (memory, context, …)
 * registers its kinds here with how to check a journal line of that kind and how to apply it; the composition
 * (src/core/domains.ts) registers every domain before any journal is replayed. A line of a kind nobody registered
 * is never applied, and a compaction refuses to fold past it (see compaction.ts): folding would drop it.
 */
export interface StoreOp {
  readonly kind: string;
  readonly id: string;
}

export interface OperationKind<Op extends StoreOp> {
  readonly kind: Op['kind'];
  /** A journal line is untrusted input (another process, an older version, a damaged write): check its shape. */
  validate(value: Record<string, unknown>): boolean;
  /** Applies it; false when it changed nothing. `deferIndex` receives rows whose search indexing the caller batches. */
  apply(db: Database, op: Op, deferIndex?: (rowid: number) => void): boolean;
  /** Removes text (forgetting, retention): after replaying one, the compactor merges the search index. */
  readonly removesText?: boolean;
  /**
   * Finishes work that applying this kind leaves for a quiet moment (so that it stays off the reply path). The store
   * runs it when idle and before the database is exported; a domain runs it before reading what it defers.
   */
  settle?(db: Database): void;
  /**
   * Applying it neither reads nor removes anything another kind defers (reports, fact uses), so that work may wait past
   * it. An operation of any other kind settles all deferred work first: a forgetting must reach a deferred report.
   */
  readonly keepsDeferredWork?: boolean;
}

const kinds = new Map<string, OperationKind<StoreOp>>();

/** Registers a kind; registering the same definition again is harmless, a different one for a taken kind is an error. */
export function registerOperationKind<Op extends StoreOp>(definition: OperationKind<Op>): void {
  const existing = kinds.get(definition.kind);
  if (existing && existing !== (definition as unknown as OperationKind<StoreOp>)) {
    throw new Error(`The operation kind "${definition.kind}" is registered twice`);
  }
  kinds.set(definition.kind, definition as unknown as OperationKind<StoreOp>);
}

export function isRegisteredKind(kind: string): boolean {
  return kinds.has(kind);
}

export function registeredKinds(): string[] {
  return [...kinds.keys()].sort();
}

export type OpCheck = { readonly ok: true; readonly op: StoreOp } | { readonly ok: false; readonly reason: string; readonly unknownKind: boolean };

/** Checks a parsed journal line: a registered kind whose shape fits. */
export function checkStoreOp(value: unknown): OpCheck {
  if (!value || typeof value !== 'object') return { ok: false, reason: 'it is not an operation', unknownKind: false };
  const record = value as Record<string, unknown>;
  if (typeof record.id !== 'string' || typeof record.kind !== 'string') return { ok: false, reason: 'it has no kind or id', unknownKind: false };
  const kind = kinds.get(record.kind);
  if (!kind) return { ok: false, reason: `its kind "${record.kind}" is not one this version knows`, unknownKind: true };
  return kind.validate(record) ? { ok: true, op: record as unknown as StoreOp } : { ok: false, reason: `it is not a valid "${record.kind}" operation`, unknownKind: false };
}

export function isStoreOp(value: unknown): value is StoreOp {
  return checkStoreOp(value).ok;
}

/** Applies one operation; returns false when it changed nothing (already applied, or nothing to do). */
export function applyOp(db: Database, op: StoreOp, deferIndex?: (rowid: number) => void): boolean {
  const kind = kinds.get(op.kind);
  if (!kind) throw new Error(`No domain registered the operation kind "${op.kind}"`);
  if (!kind.keepsDeferredWork) settleDeferred(db);
  return kind.apply(db, op, deferIndex);
}

/** Whether applying this kind may leave work for a quiet moment (the store then makes sure one comes). */
export function defersWork(kind: string): boolean {
  return kinds.get(kind)?.settle !== undefined;
}

/** Runs every kind's deferred work on this database (see OperationKind.settle). */
export function settleDeferred(db: Database): void {
  for (const kind of kinds.values()) kind.settle?.(db);
}

export function removesText(op: StoreOp): boolean {
  return kinds.get(op.kind)?.removesText === true;
}
