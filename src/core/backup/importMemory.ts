import { randomUUID } from 'node:crypto';
import type { TokenCounter } from '../shared/tokenCounter';
import type { MemoryStore } from '../store/memoryStore';
import { planImport, type ImportPlan, type KeyConflict } from './importPlan';
import type { ExportedStatement, MemoryFile, Tombstone } from './memoryFile';

export { planImport, type ImportPlan, type KeyConflict } from './importPlan';

/** What an import did. */
export interface ImportResult {
  readonly sessions: number;
  readonly turnsAdded: number;
  readonly turnsAlreadyStored: number;
  /** Turns of conversations (or turns) the owner forgot on this machine: they stay forgotten. */
  readonly turnsForgottenHere: number;
  readonly factsAdded: number;
  readonly factsUpdated: number;
  readonly behaviorsAdded: number;
  readonly behaviorsUpdated: number;
  /** Keys confirmed on both machines: the older value was retired with an audit line. */
  readonly conflicts: readonly KeyConflict[];
  /** What the file's tombstones removed from this machine. */
  readonly forgottenHere: number;
  readonly changed: boolean;
}

/**
 * Applies a backup as the owner's own: conversations, statements with their audit trails, behaviours and tombstones,
 * each as a journaled operation (so other windows see it, and a crash loses nothing it reported). The plan is worked
 * out here unless the caller passes the one it showed; a second import of the same file writes nothing at all.
 */
export async function importMemory(store: MemoryStore, file: MemoryFile, tokens: TokenCounter, options: { now?: Date; plan?: ImportPlan } = {}): Promise<ImportResult> {
  // A plan shown to the owner a moment ago is still good: every operation below is safe to apply over a store that
  // changed since (a tombstone written meanwhile still wins), and planning scans every string for secrets again.
  const plan = options.plan ?? planImport(store, file);
  const now = options.now ?? new Date();
  const at = now.toISOString();
  const reason = `imported from a backup exported ${plan.file.exportedAt}`;
  const removed = await applyTombstones(store, plan);
  const sessionsToWrite = new Set([...plan.conversations.add, ...plan.conversations.update]);
  let turnsAdded = 0;
  let turnsAlreadyStored = plan.turns.alreadyHere;
  let turnsForgottenHere = plan.turns.forgottenHere;
  for (const session of plan.file.sessions) {
    for (const turn of session.turns) {
      // Only the turns the plan found new: recording a known one would scan its text for secrets for nothing.
      if (!plan.turns.ids.has(turn.id)) continue;
      try {
        const stored = store.recordTurn({ ...turn, sessionId: session.id, source: session.source });
        if (stored.created) turnsAdded++;
        else turnsAlreadyStored++;
      } catch (error) {
        // A conversation (or a turn) forgotten on this machine stays forgotten.
        if ((error as Error).name !== 'ForgottenSessionError') throw error;
        turnsForgottenHere++;
      }
    }
    if (!sessionsToWrite.has(session.id)) continue;
    const times = session.turns.map((turn) => turn.at).sort();
    store.applyOperation({
      kind: 'importSession', id: randomUUID(), sessionId: session.id, source: session.source,
      startedAt: session.startedAt ?? times[0] ?? plan.file.exportedAt, lastAt: session.lastAt ?? times.at(-1) ?? plan.file.exportedAt,
      ...(session.summary !== undefined ? { summary: session.summary } : {}),
      ...(session.summaryUpto !== undefined ? { summaryUptoTurnId: session.summaryUpto } : {}),
      ...(session.summaryUptoSeq !== undefined ? { summaryUptoSeq: session.summaryUptoSeq } : {}),
      ...(session.cooledAt !== undefined ? { cooledAt: session.cooledAt } : {}),
    });
  }
  for (const statement of [...plan.facts.add, ...plan.facts.update]) store.applyOperation(statementOp(statement, tokens, at, reason));
  for (const conflict of plan.conflicts) {
    store.applyOperation({
      kind: 'statement', action: 'retire', id: randomUUID(), statementId: conflict.retired.id, at,
      reason: `confirmed on both machines; on import the newer value was kept: ${conflict.key} = ${conflict.kept.value} ` +
        `(confirmed ${conflict.kept.confirmedAt} ${conflict.kept.from === 'file' ? 'on the machine the backup came from' : 'on this machine'}; ` +
        `this one ${conflict.retired.confirmedAt} ${conflict.retired.from === 'file' ? 'there' : 'here'})`,
    });
  }
  const behaviorsToWrite = new Set([...plan.behaviors.add, ...plan.behaviors.update]);
  for (const behavior of plan.file.behaviors) {
    if (!behaviorsToWrite.has(behavior.id)) continue;
    const { id, history, ...record } = behavior;
    store.applyOperation({ kind: 'behavior', action: 'import', id: randomUUID(), behaviorId: id, at, reason, record: { ...record, tokens: tokens.count(record.text) }, events: history });
  }
  await store.flush();
  return {
    sessions: plan.file.sessions.length,
    turnsAdded,
    turnsAlreadyStored,
    turnsForgottenHere,
    factsAdded: plan.facts.add.length,
    factsUpdated: plan.facts.update.length,
    behaviorsAdded: plan.behaviors.add.length,
    behaviorsUpdated: plan.behaviors.update.length,
    conflicts: plan.conflicts,
    forgottenHere: removed,
    changed: !plan.nothingNew,
  };
}

function statementOp(statement: ExportedStatement, tokens: TokenCounter, at: string, reason: string) {
  const { id, history, mentions, words, ...rest } = statement;
  return {
    kind: 'statement' as const, action: 'import' as const, id: randomUUID(), statementId: id, at, reason,
    record: { ...rest, sourceWords: words, tokens: tokens.count(`${statement.key}: ${statement.value}`) },
    events: history, mentions,
  };
}

/**
 * Tombstones first, so nothing the owner forgot comes back with the rest; returns how many records they removed here.
 * What this machine still holds goes through the store's forgetting (vectors, journals and snapshots included); a
 * tombstone of something never seen here is recorded with the time it was forgotten at.
 */
async function applyTombstones(store: MemoryStore, plan: ImportPlan): Promise<number> {
  const sessionsHere = new Set(store.listSessions().map((session) => session.id));
  const removeSessions = plan.forget.sessions.filter((t) => sessionsHere.has(t.id)).map((t) => t.id);
  if (removeSessions.length > 0) await store.forgetSessions(removeSessions);
  for (const [at, ids] of byTime(plan.forget.sessions.filter((t) => !sessionsHere.has(t.id)))) store.applyOperation({ kind: 'forgetSessions', id: randomUUID(), sessionIds: ids, at });
  const turnSession = (id: string): string | undefined => store.read((db) => db.exec('SELECT session_id FROM turns WHERE id = ?', [id])[0]?.values[0]?.[0] as string | undefined);
  const removeTurns = new Map<string, string[]>();
  const recordOnly: Tombstone[] = [];
  for (const tombstone of plan.forget.turns) {
    const session = turnSession(tombstone.id);
    if (session === undefined) recordOnly.push(tombstone);
    else removeTurns.set(session, [...(removeTurns.get(session) ?? []), tombstone.id]);
  }
  for (const [session, ids] of removeTurns) await store.forgetTurns(session, ids);
  for (const [at, ids] of byTime(recordOnly)) store.applyOperation({ kind: 'forgetTurns', id: randomUUID(), turnIds: ids, at });
  let statementsRemoved = 0;
  for (const tombstone of plan.forget.statements) {
    const op = { kind: 'statement' as const, action: 'forget' as const, id: randomUUID(), statementId: tombstone.id, at: tombstone.at, reason: 'forgotten on the machine the backup came from' };
    if (store.applyOperation(op)) statementsRemoved++;
  }
  if (statementsRemoved > 0) await store.purgeJournals();
  return plan.forget.removesHere;
}

/** Tombstones grouped by their time, so each keeps the time it was forgotten at. */
function byTime(tombstones: readonly Tombstone[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const { id, at } of tombstones) groups.set(at, [...(groups.get(at) ?? []), id]);
  return groups;
}
