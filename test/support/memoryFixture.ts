import type { MemoryStore } from '../../src/core/store/memoryStore';
import { EngramMemory } from '../../src/core/turn/engramMemory';
import { wordCounter } from './tempStore';

/** A project scope the fixture's project facts are about. */
export const fixtureProject = 'project:github.com/acme/app' as const;

/**
 * Fills a store with one of everything a backup must carry: confirmed, retired (with the reason), rejected and proposed
 * facts of the owner, project facts, approved, proposed and rejected behaviours, a summary, a conversation cooled to its
 * summary, and tombstones of a forgotten conversation, a forgotten turn and a forgotten fact.
 */
export async function fillMemory(store: MemoryStore): Promise<void> {
  let clock = Date.parse('2026-03-01T09:00:00Z');
  const memory = new EngramMemory(store, wordCounter, { now: () => new Date((clock += 60_000)) });
  const { facts, behaviors } = memory;

  store.recordTurn({ id: 'old-1', sessionId: 'old', role: 'user', text: 'how do I rebase?', at: '2025-01-01T10:00:00Z' });
  store.recordTurn({ id: 'old-2', sessionId: 'old', role: 'assistant', text: 'git rebase -i', at: '2025-01-01T10:01:00Z' });
  store.setSummary('old', 'Talked about rebasing.', 2);
  await store.applyRetention(90);

  const intro = store.recordTurn({ id: 'chat-1', sessionId: 'chat', role: 'user', text: 'My name is Priya.', at: '2026-03-01T09:00:00Z', ref: 'r1' });
  facts.captureFromTurn(intro);
  store.recordTurn({ id: 'chat-2', sessionId: 'chat', role: 'assistant', text: 'Hello Priya.', at: '2026-03-01T09:00:05Z' });
  facts.remember('employer', 'Northwind Labs');
  const calico = facts.remember('employer', 'Calico');
  store.recordTurn({ id: 'chat-3', sessionId: 'chat', role: 'user', text: 'forget what I just said', at: '2026-03-01T09:01:00Z' });
  await store.forgetTurns('chat', ['chat-3']);
  store.setSummary('chat', 'Priya introduced herself; she works at Calico.', 2);

  const editor = facts.proposeFromAgent({ key: 'editor', value: 'Emacs', client: 'other-agent' }).statement;
  facts.reject(editor.id);
  facts.proposeFromAgent({ key: 'shell', value: 'fish', client: 'other-agent' });
  const gone = facts.remember('diet', 'vegan');
  await facts.forget(gone.id);

  facts.remember('test_framework', 'vitest', fixtureProject);
  facts.remember('test_framework', 'jest', fixtureProject);
  facts.remember('languages', 'TypeScript', fixtureProject);
  facts.remember('build_command', 'npm run build', 'project:github.com/acme/tools');

  const lesson = behaviors.propose("Check the user's current employer before naming it", 'they corrected "Northwind Labs"', { statementId: calico.id, turnId: 'chat-1' });
  behaviors.decide(lesson.id, 'approve', 'approved by the owner');
  behaviors.propose('Prefer early returns', 'they asked for it twice');
  const no = behaviors.propose('Answer in French', 'one message in French');
  behaviors.decide(no.id, 'reject', 'rejected by the owner');

  store.recordTurn({ id: 'secret-1', sessionId: 'secret-plans', role: 'user', text: 'the surprise party is on Friday', at: '2026-03-02T09:00:00Z' });
  await store.forgetSessions(['secret-plans']);
  await store.flush();
}

/** Every row a backup must carry, read straight from the tables (not through the exporter), in a fixed order. */
export function memoryTables(store: MemoryStore, options: { tokens?: boolean } = {}): Record<string, unknown[]> {
  const tables: Record<string, string> = {
    sessions: 'SELECT id, source, started_at, last_at, summary, summary_upto, cooled_at FROM sessions ORDER BY id',
    turns: 'SELECT id, session_id, seq, role, text, at, ref, tokens FROM turns ORDER BY id',
    statements: `SELECT id, key, value, cardinality, status, tier, origin, source_turn_id, source_session_id, source_words, created_at,
                   updated_at, asked_in_session, tokens, scope, citation FROM statements ORDER BY id`,
    statementEvents: 'SELECT id, statement_id, at, action, status_after, reason, turn_id FROM statement_events ORDER BY id',
    mentions: 'SELECT statement_id, turn_id FROM statement_mentions ORDER BY statement_id, turn_id',
    behaviors: 'SELECT id, text, status, evidence, evidence_turn_id, statement_id, created_at, updated_at, tokens FROM behaviors ORDER BY id',
    behaviorEvents: 'SELECT id, behavior_id, at, action, reason FROM behavior_events ORDER BY id',
    forgottenSessions: 'SELECT session_id, at FROM forgotten_sessions ORDER BY session_id',
    forgottenTurns: 'SELECT turn_id, at FROM forgotten_turns ORDER BY turn_id',
    forgottenStatements: 'SELECT statement_id, at FROM forgotten_statements ORDER BY statement_id',
    statementSearch: "SELECT key, value FROM statements_fts WHERE statements_fts MATCH 'Calico OR vitest OR Priya' ORDER BY key, value",
  };
  return store.read((db) =>
    Object.fromEntries(Object.entries(tables).map(([name, sql]) => {
      const result = db.exec(sql)[0];
      const columns = (result?.columns ?? []).map((column, i) => [column, i] as const).filter(([column]) => options.tokens !== false || column !== 'tokens');
      return [name, result ? result.values.map((row) => Object.fromEntries(columns.map(([column, i]) => [column, row[i]]))) : []];
    })),
  );
}
