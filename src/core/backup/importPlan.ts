import type { Database } from 'sql.js';
import { behaviorEventsOf } from '../memory/behaviorImport';
import { isLater, mentionsOf } from '../memory/statementImport';
import { eventsOf, findStatement, type StatementStatus } from '../memory/statementRepository';
import { redactDeep } from '../shared/secrets';
import type { MemoryStore } from '../store/memoryStore';
import { selectAll, selectNumber } from '../store/rows';
import { summarizeMemoryFile, type ExportedSession, type ExportedStatement, type MemoryFile, type MemoryFileSummary, type Tombstone } from './memoryFile';

/** Two machines each confirmed a value of the same key: the newer is kept, the other retired with an audit line. */
export interface KeyConflict {
  readonly scope: string;
  readonly key: string;
  readonly kept: ConflictSide;
  readonly retired: ConflictSide;
}

export interface ConflictSide {
  readonly id: string;
  readonly value: string;
  readonly confirmedAt: string;
  /** Where the value was confirmed: in the backup being imported, or on this machine. */
  readonly from: 'file' | 'here';
}

/** What importing a file would do to this store, worked out before anything is written. */
export interface ImportPlan {
  /** The file with every string scanned for secrets again (what is written is this, never the raw file). */
  readonly file: MemoryFile;
  readonly holds: MemoryFileSummary;
  readonly turns: { readonly add: number; readonly alreadyHere: number; readonly forgottenHere: number; readonly ids: ReadonlySet<string> };
  readonly conversations: { readonly add: readonly string[]; readonly update: readonly string[] };
  readonly facts: { readonly add: readonly ExportedStatement[]; readonly update: readonly ExportedStatement[]; readonly forgottenHere: number };
  readonly behaviors: { readonly add: readonly string[]; readonly update: readonly string[] };
  readonly conflicts: readonly KeyConflict[];
  /** Tombstones new here, and how many of them remove something this machine still holds. */
  readonly forget: { readonly sessions: readonly Tombstone[]; readonly turns: readonly Tombstone[]; readonly statements: readonly Tombstone[]; readonly removesHere: number };
  /** Nothing would change: the file's memory is all here already (the second import of a file). */
  readonly nothingNew: boolean;
}

/** Every string that reaches the store passes the secret redactor, the file's ids and references included. */
function redactFile(file: MemoryFile): MemoryFile {
  return {
    ...file,
    // Turn text is redacted where every turn is (MemoryStore.recordTurn); the rest of a conversation here.
    // One scan per conversation over its ids, refs and summary (the redactor scans many strings at once far faster
    // than one by one).
    sessions: file.sessions.map((session) => {
      const { turns, ...rest } = redactDeep({ ...session, turns: session.turns.map((turn) => ({ id: turn.id, ref: turn.ref })) });
      return { ...rest, turns: session.turns.map((turn, i) => ({ ...turn, id: turns[i].id, ...(turn.ref !== undefined ? { ref: turns[i].ref } : {}) })) };
    }),
    statements: redactDeep(file.statements),
    behaviors: redactDeep(file.behaviors),
    forgotten: redactDeep(file.forgotten),
  };
}

const exists = (db: Database, sql: string, id: string): boolean => selectNumber(db, sql, [id]) > 0;

export function planImport(store: MemoryStore, raw: MemoryFile): ImportPlan {
  const file = redactFile(raw);
  return store.read((db) => {
    const forget = {
      sessions: file.forgotten.sessions.filter((t) => !exists(db, 'SELECT COUNT(*) FROM forgotten_sessions WHERE session_id = ?', t.id)),
      turns: file.forgotten.turns.filter((t) => !exists(db, 'SELECT COUNT(*) FROM forgotten_turns WHERE turn_id = ?', t.id)),
      statements: file.forgotten.statements.filter((t) => !exists(db, 'SELECT COUNT(*) FROM forgotten_statements WHERE statement_id = ?', t.id)),
    };
    const removesHere =
      forget.sessions.filter((t) => exists(db, 'SELECT COUNT(*) FROM sessions WHERE id = ?', t.id)).length +
      forget.turns.filter((t) => exists(db, 'SELECT COUNT(*) FROM turns WHERE id = ?', t.id)).length +
      forget.statements.filter((t) => exists(db, 'SELECT COUNT(*) FROM statements WHERE id = ?', t.id)).length;
    const turns = { add: 0, alreadyHere: 0, forgottenHere: 0, ids: new Set<string>() };
    const conversations = { add: [] as string[], update: [] as string[] };
    for (const session of file.sessions) planSession(db, session, turns, conversations);
    const facts = { add: [] as ExportedStatement[], update: [] as ExportedStatement[], forgottenHere: 0 };
    for (const statement of file.statements) {
      if (exists(db, 'SELECT COUNT(*) FROM forgotten_statements WHERE statement_id = ?', statement.id)) facts.forgottenHere++;
      else if (!findStatement(db, statement.id)) facts.add.push(statement);
      else if (statementWouldChange(db, statement)) facts.update.push(statement);
    }
    const behaviors = { add: [] as string[], update: [] as string[] };
    for (const behavior of file.behaviors) {
      const here = selectAll(db, 'SELECT updated_at FROM behaviors WHERE id = ?', [behavior.id])[0];
      if (!here) behaviors.add.push(behavior.id);
      else {
        const events = new Set(behaviorEventsOf(db, behavior.id).map((e) => e.id));
        if (isLater(behavior.updatedAt, String(here.updated_at)) || behavior.history.some((e) => !events.has(e.id))) behaviors.update.push(behavior.id);
      }
    }
    const conflicts = findConflicts(db, file, [...facts.add, ...facts.update]);
    const nothingNew =
      turns.add + conversations.add.length + conversations.update.length + facts.add.length + facts.update.length + behaviors.add.length + behaviors.update.length +
        forget.sessions.length + forget.turns.length + forget.statements.length === 0;
    return { file, holds: summarizeMemoryFile(file), turns, conversations, facts, behaviors, conflicts, forget: { ...forget, removesHere }, nothingNew };
  });
}

function planSession(db: Database, session: ExportedSession, turns: { add: number; alreadyHere: number; forgottenHere: number; ids: Set<string> }, conversations: { add: string[]; update: string[] }): void {
  if (exists(db, 'SELECT COUNT(*) FROM forgotten_sessions WHERE session_id = ?', session.id)) {
    turns.forgottenHere += session.turns.length;
    return;
  }
  for (const turn of session.turns) {
    if (exists(db, 'SELECT COUNT(*) FROM turns WHERE id = ?', turn.id)) turns.alreadyHere++;
    else if (exists(db, 'SELECT COUNT(*) FROM forgotten_turns WHERE turn_id = ?', turn.id)) turns.forgottenHere++;
    else {
      turns.add++;
      turns.ids.add(turn.id);
    }
  }
  const here = selectAll(db, 'SELECT started_at, last_at, summary FROM sessions WHERE id = ?', [session.id])[0];
  if (!here) {
    conversations.add.push(session.id);
    return;
  }
  const widens = (session.startedAt !== undefined && session.startedAt < String(here.started_at)) || (session.lastAt !== undefined && session.lastAt > String(here.last_at));
  if (widens || (session.summary !== undefined && session.summary !== here.summary)) conversations.update.push(session.id);
}

function statementWouldChange(db: Database, statement: ExportedStatement): boolean {
  const here = findStatement(db, statement.id);
  if (!here || isLater(statement.updatedAt, here.updatedAt)) return true;
  const events = new Set(eventsOf(db, statement.id).map((e) => e.id));
  const mentions = new Set(mentionsOf(db, statement.id));
  return statement.history.some((e) => !events.has(e.id)) || statement.mentions.some((m) => !mentions.has(m));
}

interface Effective {
  readonly id: string;
  readonly scope: string;
  readonly key: string;
  readonly value: string;
  readonly cardinality: string;
  readonly status: StatementStatus;
  readonly confirmedAt: string;
  readonly from: 'file' | 'here';
}

/** When a statement's value was last confirmed: its last event that confirmed it, else its last change. */
function confirmedAtOf(history: readonly { action: string; statusAfter: string; at: string }[], updatedAt: string): string {
  return history.filter((e) => e.action === 'confirmed' || (e.statusAfter === 'confirmed' && e.action !== 'mentioned')).at(-1)?.at ?? updatedAt;
}

/**
 * Confirmed on both machines: for a single key any two values, for a multi key the same value twice. Only a value from
 * the file against one confirmed here alone is a conflict: what each machine holds by itself stays as it was.
 */
function findConflicts(db: Database, file: MemoryFile, incoming: readonly ExportedStatement[]): KeyConflict[] {
  const inFile = new Set(file.statements.map((s) => s.id));
  const arriving = new Map(incoming.map((s) => [s.id, s]));
  const groupOf = (s: { scope: string; key: string; value: string; cardinality: string }): string =>
    s.cardinality === 'single' ? `${s.scope}\u0000${s.key}` : `${s.scope}\u0000${s.key}\u0000${s.value.toLowerCase()}`;
  const groups = new Map<string, Effective[]>();
  const add = (e: Effective): void => {
    if (e.status !== 'confirmed') return;
    const list = groups.get(groupOf(e)) ?? [];
    list.push(e);
    groups.set(groupOf(e), list);
  };
  for (const s of arriving.values()) {
    // A statement already here that changed here later keeps this machine's row: that row is what will be believed.
    const here = findStatement(db, s.id);
    if (here && !isLater(s.updatedAt, here.updatedAt)) add({ ...here, confirmedAt: confirmedAtOf(eventsOf(db, s.id), here.updatedAt), from: 'file' });
    else add({ ...s, confirmedAt: confirmedAtOf(s.history, s.updatedAt), from: 'file' });
  }
  const keys = [...new Set(incoming.filter((s) => s.status === 'confirmed').map((s) => `${s.scope}\u0000${s.key}`))];
  for (const scopeKey of keys) {
    const [scope, key] = scopeKey.split('\u0000');
    for (const row of selectAll(db, "SELECT id FROM statements WHERE scope = ? AND key = ? AND status = 'confirmed'", [scope, key])) {
      const id = String(row.id);
      if (arriving.has(id)) continue;
      const here = findStatement(db, id);
      if (here) add({ ...here, confirmedAt: confirmedAtOf(eventsOf(db, id), here.updatedAt), from: inFile.has(id) ? 'file' : 'here' });
    }
  }
  const conflicts: KeyConflict[] = [];
  for (const members of groups.values()) {
    const fileSide = members.filter((m) => m.from === 'file');
    const hereSide = members.filter((m) => m.from === 'here');
    if (fileSide.length === 0 || hereSide.length === 0) continue;
    const newest = [...members].sort((a, b) => (isLater(b.confirmedAt, a.confirmedAt) ? 1 : isLater(a.confirmedAt, b.confirmedAt) ? -1 : a.from === 'here' ? -1 : 1))[0];
    for (const loser of newest.from === 'file' ? hereSide : fileSide) {
      conflicts.push({ scope: loser.scope, key: loser.key, kept: side(newest), retired: side(loser) });
    }
  }
  return conflicts;
}

const side = (e: Effective): ConflictSide => ({ id: e.id, value: e.value, confirmedAt: e.confirmedAt, from: e.from });
