import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkMemoryFile } from '../../src/core/backup/checkMemoryFile';
import { exportMemory } from '../../src/core/backup/exportMemory';
import { importMemory } from '../../src/core/backup/importMemory';
import { openTestStore, tempFolder, wordCounter } from '../support/tempStore';
import { searchStoredTurns } from '../../src/core/recall/turnSearch';

/** Every file of the store folder, as raw text: what a forgotten conversation must no longer appear in. */
function everythingOnDisk(folder: string): string {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.push(readFileSync(path).toString('latin1'));
    }
  };
  walk(folder);
  return files.join('\n');
}

describe('forgetting, retention, export and import', () => {
  let temp: ReturnType<typeof tempFolder>;
  beforeEach(() => (temp = tempFolder()));
  afterEach(() => temp.remove());

  it('forgets a conversation everywhere: rows, search index, journals and snapshot on disk', async () => {
    const store = await openTestStore(temp.folder);
    store.recordTurn({ sessionId: 'secret', role: 'user', text: 'my zebracorn quuxlaunch codes are private' });
    store.recordTurn({ sessionId: 'kept', role: 'user', text: 'the zebracorn test hangs' });
    await store.snapshot();
    const forgotten: { sessionIds: readonly string[]; turnIds: readonly string[] }[] = [];
    store.onDidForget((removed) => forgotten.push(removed));
    const secretTurn = store.turns('secret')[0].id;
    assert.equal(await store.forgetSessions(['secret']), 1);
    assert.deepEqual(forgotten, [{ sessionIds: ['secret'], turnIds: [secretTurn] }], 'the vector store is told which turns went');
    assert.deepEqual(searchStoredTurns(store, 'zebracorn').map((hit) => hit.session), ['kept']);
    assert.equal(everythingOnDisk(temp.folder).includes('quuxlaunch'), false, 'the text and its index terms are gone from every file');
    assert.throws(() => store.recordTurn({ sessionId: 'secret', role: 'user', text: 'again' }), /forgotten/);
    await store.close();
    const reopened = await openTestStore(temp.folder);
    assert.deepEqual(reopened.listSessions().map((s) => s.id), ['kept']);
    await reopened.close();
  });

  it('keeps a forgotten conversation forgotten when another window replays an older journal', async () => {
    const other = await openTestStore(temp.folder);
    other.recordTurn({ sessionId: 'old', role: 'user', text: 'written by another window' });
    await other.flush();
    const store = await openTestStore(temp.folder);
    await store.forgetSessions(['old']);
    await store.close();
    const reopened = await openTestStore(temp.folder);
    assert.equal(reopened.stats().turns, 0, 'the other journal still holds the turn, the tombstone keeps it out');
    await reopened.close();
    await other.close();
  });

  it('cools quiet sessions to their summary, and keeps the text of a session without one', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const store = await openTestStore(temp.folder, { now: () => now });
    store.recordTurn({ sessionId: 'summarised', role: 'user', text: 'we fixed the flaky test' });
    store.setSummary('summarised', 'Fixed a flaky test by awaiting the server.');
    store.recordTurn({ sessionId: 'unsummarised', role: 'user', text: 'no summary was ever written' });
    now = new Date('2026-03-01T00:00:00Z');
    assert.deepEqual(await store.applyRetention(90), [], 'nothing is older than 90 days yet');
    now = new Date('2026-04-15T00:00:00Z');
    assert.deepEqual(await store.applyRetention(90), ['summarised']);
    const sessions = new Map(store.listSessions().map((s) => [s.id, s]));
    assert.equal(sessions.get('summarised')?.turns, 0);
    assert.equal(sessions.get('summarised')?.summary, 'Fixed a flaky test by awaiting the server.');
    assert.ok(sessions.get('summarised')?.cooledAt);
    assert.equal(sessions.get('unsummarised')?.turns, 1, 'a session is never cooled to nothing');
    await store.close();
  });

  it('exports to JSON and imports it into another store, idempotently', async () => {
    const source = await openTestStore(join(temp.folder, 'a'));
    source.recordTurn({ sessionId: 's1', role: 'user', text: 'hello <|endoftext|>' });
    source.recordTurn({ sessionId: 's1', role: 'assistant', text: 'hi' });
    source.setSummary('s1', 'A greeting.');
    const exported = JSON.parse(JSON.stringify(exportMemory(source)));
    await source.close();
    const checked = checkMemoryFile(exported);
    assert.ok(typeof checked !== 'string', String(checked));
    const target = await openTestStore(join(temp.folder, 'b'));
    const first = await importMemory(target, checked, wordCounter);
    assert.deepEqual([first.sessions, first.turnsAdded, first.turnsAlreadyStored, first.changed], [1, 2, 0, true]);
    const second = await importMemory(target, checked, wordCounter);
    assert.deepEqual([second.sessions, second.turnsAdded, second.turnsAlreadyStored, second.changed], [1, 0, 2, false]);
    assert.deepEqual(target.turns('s1').map((t) => t.text), ['hello <|endoftext|>', 'hi']);
    assert.equal(target.listSessions()[0].summary, 'A greeting.');
    await target.close();
  });

  it('refuses a file that is not an Engram export, saying why', () => {
    assert.match(String(checkMemoryFile({ format: 'other' })), /not an Engram memory export/);
    assert.match(String(checkMemoryFile({ format: 'engram-memory', version: 1, exportedAt: '2026-01-01T00:00:00Z', sessions: [{ id: 's', source: 'chat', turns: [{ id: 1 }] }] })), /turn 1 of conversation 1/);
  });
});
