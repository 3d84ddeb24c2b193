import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { ContextReport } from '../../src/core/context/contextReport';
import type { MemoryStore } from '../../src/core/store/memoryStore';
import { EngramMemory } from '../../src/core/turn/engramMemory';
import { openTestStore, tempFolder, wordCounter } from '../support/tempStore';

/**
 * A report is written to its table at a quiet moment, not while the turn finishes: no reader, no removal and no
 * reopen may tell the difference.
 */
describe('context reports written at a quiet moment', () => {
  let temp: ReturnType<typeof tempFolder>;
  beforeEach(() => (temp = tempFolder('engram-reports-')));
  afterEach(() => temp.remove());

  function report(sessionId: string, turnId: string, factIds: readonly string[], fetched: readonly string[] = []): ContextReport {
    return {
      turnId,
      sessionId,
      at: new Date().toISOString(),
      model: { id: 'm', name: 'm', vendor: 'test' },
      window: 8192,
      budget: 6000,
      totalTokens: 100,
      blocks: [],
      retrieval: [
        ...factIds.map((memoryId) => ({ kind: 'fact' as const, memoryId, via: 'prompt' as const, label: 'x' })),
        ...fetched.map((memoryId) => ({ kind: 'fact' as const, memoryId, via: 'tool:memory_search' as const, label: 'x' })),
      ],
      health: { fill: 0.1, nextToGo: 'nothing yet' },
    };
  }

  const rows = (store: MemoryStore, sql: string): unknown[][] => store.read((db) => db.exec(sql)[0]?.values ?? []);

  it('is read back at once, counted once, and survives a reopen', async () => {
    const store = await openTestStore(temp.folder);
    const memory = new EngramMemory(store, wordCounter);
    const fact = memory.facts.remember('employer', 'Calico');
    memory.saveReport(report('s', 't1', [fact.id], [fact.id]));
    assert.equal(memory.reportsOfSession('s').length, 1, 'a reader sees the report just saved');
    assert.deepEqual(memory.recentReports(5).map((r) => r.turnId), ['t1']);
    assert.deepEqual(memory.recall('anything').length, 0);
    assert.equal(rows(store, 'SELECT COUNT(*) FROM retrieval_log')[0][0], 1);
    await store.close();
    const reopened = await openTestStore(temp.folder);
    assert.equal(rows(reopened, 'SELECT COUNT(*) FROM context_reports')[0][0], 1, 'an opened store holds every report replayed');
    assert.equal(rows(reopened, 'SELECT access_count FROM statements')[0][0], 1);
    await reopened.close();
  });

  it('a forgotten conversation takes its unwritten report with it', async () => {
    const store = await openTestStore(temp.folder);
    const memory = new EngramMemory(store, wordCounter);
    store.recordTurn({ sessionId: 'gone', role: 'user', text: 'hello' });
    memory.saveReport(report('gone', 't1', []));
    await store.forgetSessions(['gone']);
    assert.equal(rows(store, 'SELECT COUNT(*) FROM context_reports')[0][0], 0);
    assert.equal(memory.reportsOfSession('gone').length, 0);
    await store.close();
  });

  it('a forgotten fact leaves no label in an unwritten report and no row in the retrieval log', async () => {
    const store = await openTestStore(temp.folder);
    const memory = new EngramMemory(store, wordCounter);
    const fact = memory.facts.remember('employer', 'Calico');
    memory.saveReport({ ...report('s', 't1', [], [fact.id]) });
    store.applyOperation({ kind: 'statement', action: 'forget', id: randomUUID(), statementId: fact.id, at: new Date().toISOString(), reason: 'test' });
    assert.equal(rows(store, `SELECT COUNT(*) FROM retrieval_log WHERE memory_id = '${fact.id}'`)[0][0], 0);
    const [stored] = memory.reportsOfSession('s');
    assert.deepEqual(stored.retrieval.map((entry) => entry.label), ['[forgotten]']);
    await store.close();
  });
});
