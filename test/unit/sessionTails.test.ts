import assert from 'node:assert/strict';
import { JournalWriter } from '../../src/core/store/journal';
import type { MemoryStore } from '../../src/core/store/memoryStore';
import { recentTurnsOfSession, turnsOfSessionAfter } from '../../src/core/store/turnRepository';
import { openTestStore, tempFolder } from '../support/tempStore';

/** The kept recent turns and counts must always read as the database does: checked against it after every kind of change. */
describe('recent turns kept per session', () => {
  let temp: ReturnType<typeof tempFolder>;
  beforeEach(() => (temp = tempFolder()));
  afterEach(() => temp.remove());

  function assertExact(store: MemoryStore, sessionId: string): void {
    for (const limit of [1, 2, 3, 40, 201, 300]) {
      assert.deepEqual(store.recentTurns(sessionId, limit), store.read((db) => recentTurnsOfSession(db, sessionId, limit)), `the last ${limit} of ${sessionId}`);
    }
    const count = store.read((db) => Number(db.exec('SELECT COUNT(*) FROM turns WHERE session_id = ?', [sessionId])[0]?.values[0]?.[0] ?? 0));
    assert.equal(store.turnCount(sessionId), count, `the turn count of ${sessionId}`);
    const sessions = store.read((db) => Number(db.exec('SELECT COUNT(*) FROM sessions')[0]?.values[0]?.[0] ?? 0));
    assert.equal(store.contextReads(sessionId).otherSessions, Math.max(0, sessions - 1), 'the other sessions');
    for (const afterSeq of [0, 5, count - 3]) {
      assert.deepEqual(store.turnsAfter(sessionId, afterSeq), store.read((db) => turnsOfSessionAfter(db, sessionId, afterSeq)), `the turns of ${sessionId} after ${afterSeq}`);
    }
  }

  it('stays exact through our own turns, past the length it keeps', async () => {
    const store = await openTestStore(temp.folder);
    assertExact(store, 's');
    for (let i = 0; i < 300; i++) {
      store.recordTurn({ sessionId: 's', role: i % 2 ? 'assistant' : 'user', text: `turn ${i}` });
      if (i % 37 === 0) assertExact(store, 's');
    }
    assertExact(store, 's');
    await store.close();
  });

  it('stays exact when another writer adds turns to the same session', async () => {
    const store = await openTestStore(temp.folder);
    for (let i = 0; i < 5; i++) store.recordTurn({ sessionId: 's', role: 'user', text: `ours ${i}` });
    assertExact(store, 's');
    const other = JournalWriter.create(temp.folder, () => undefined);
    await other.append({ kind: 'turn', id: 'theirs-1', sessionId: 's', role: 'assistant', text: 'theirs', at: new Date().toISOString(), tokens: 1, source: 'chat' });
    await other.close();
    assert.equal(store.syncFromOtherWriters(), 1);
    assertExact(store, 's');
    assert.equal(store.recentTurns('s', 1)[0].id, 'theirs-1');
    store.recordTurn({ sessionId: 's', role: 'user', text: 'ours again' });
    assertExact(store, 's');
    const another = JournalWriter.create(temp.folder, () => undefined);
    await another.append({ kind: 'turn', id: 'theirs-2', sessionId: 'new', role: 'user', text: 'a new session', at: new Date().toISOString(), tokens: 3, source: 'chat' });
    await another.close();
    store.syncFromOtherWriters();
    assertExact(store, 's');
    store.recordTurn({ sessionId: 'newer', role: 'user', text: 'and one of ours' });
    assertExact(store, 'newer');
    await store.close();
  });

  it('stays exact when turns and sessions are forgotten', async () => {
    const store = await openTestStore(temp.folder);
    const turns = Array.from({ length: 6 }, (_, i) => store.recordTurn({ sessionId: 's', role: i % 2 ? 'assistant' : 'user', text: `turn ${i}` }));
    store.recordTurn({ sessionId: 't', role: 'user', text: 'elsewhere' });
    assertExact(store, 's');
    assertExact(store, 't');
    await store.forgetTurns('s', [turns[4].id, turns[5].id]);
    assertExact(store, 's');
    await store.forgetSessions(['t']);
    assertExact(store, 't');
    await store.close();
  });
});
