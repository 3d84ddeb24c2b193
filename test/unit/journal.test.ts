import assert from 'node:assert/strict';
import { appendFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { listJournals, readJournal } from '../../src/core/store/journal';
import { openTestStore, tempFolder } from '../support/tempStore';

describe('journals and snapshots', () => {
  let temp: ReturnType<typeof tempFolder>;
  beforeEach(() => (temp = tempFolder()));
  afterEach(() => temp.remove());

  it('lets two writers share a folder: each sees the other after a sync, and nothing is lost', async () => {
    const windowA = await openTestStore(temp.folder);
    const windowB = await openTestStore(temp.folder);
    windowA.recordTurn({ sessionId: 'a', role: 'user', text: 'from window A' });
    windowB.recordTurn({ sessionId: 'b', role: 'user', text: 'from window B' });
    await Promise.all([windowA.flush(), windowB.flush()]);
    assert.equal(windowA.syncFromOtherWriters(), 1);
    assert.equal(windowA.syncFromOtherWriters(), 0, 'a second sync reads nothing new');
    assert.deepEqual(windowA.turns('b').map((t) => t.text), ['from window B']);
    await windowA.snapshot();
    await windowB.close();
    await windowA.close({ snapshot: true });
    const reopened = await openTestStore(temp.folder);
    assert.deepEqual([reopened.turns('a').length, reopened.turns('b').length], [1, 1]);
    await reopened.close();
  });

  it('folds closed journals into the snapshot, and removes them once the previous generation holds them too', async () => {
    const store = await openTestStore(temp.folder);
    store.recordTurn({ sessionId: 's', role: 'user', text: 'one' });
    await store.close({ snapshot: true });
    const [name] = listJournals(temp.folder);
    assert.ok(name, 'after the first snapshot the journal stays: no earlier generation holds it');
    assert.ok(existsSync(join(temp.folder, 'engram.sqlite')));
    const second = await openTestStore(temp.folder);
    const result = await second.snapshot();
    assert.deepEqual(result.journalsRemoved, [name], 'the next generation makes the first one the previous: the journal is in both');
    assert.deepEqual(listJournals(temp.folder), []);
    assert.ok(existsSync(join(temp.folder, 'engram.sqlite.previous')), 'the previous generation is kept');
    await second.close();
    const reopened = await openTestStore(temp.folder, { readOnly: true });
    assert.equal(reopened.stats().turns, 1);
    assert.equal(reopened.journalName, undefined, 'a read-only store creates no journal');
    assert.throws(() => reopened.recordTurn({ sessionId: 's', role: 'user', text: 'x' }), /read-only/);
    await reopened.close();
  });

  it('catches up a window that was idle while two compactions removed another writer\'s journal', async () => {
    const idle = await openTestStore(temp.folder);
    const writer = await openTestStore(temp.folder);
    for (let i = 0; i < 50; i++) writer.recordTurn({ sessionId: 'w', role: 'user', text: `turn ${i}` });
    await writer.close();
    const compactor = await openTestStore(temp.folder, { readOnly: true });
    await compactor.snapshot();
    const second = await compactor.snapshot();
    await compactor.close();
    assert.equal(second.journalsRemoved.length, 1, 'the writer\'s journal is gone before the idle window read it');
    idle.syncFromOtherWriters();
    assert.equal(idle.stats().turns, 50, 'the window reloads what it missed instead of never seeing it');
    await idle.close();
  });

  it('keeps the journal of a writer that is still open', async () => {
    const live = await openTestStore(temp.folder);
    live.recordTurn({ sessionId: 's', role: 'user', text: 'still typing' });
    await live.flush();
    const other = await openTestStore(temp.folder);
    const result = await other.snapshot();
    assert.equal(result.done, true);
    assert.deepEqual(result.journalsRemoved, []);
    assert.ok(listJournals(temp.folder).includes(live.journalName ?? ''));
    await other.close();
    await live.close();
  });

  it('counts only the journal bytes written since the last snapshot', async () => {
    const store = await openTestStore(temp.folder);
    store.recordTurn({ sessionId: 's', role: 'user', text: 'before the snapshot' });
    await store.flush();
    assert.ok(store.unsnapshottedBytes > 0);
    await store.snapshot();
    assert.equal(store.unsnapshottedBytes, 0);
    store.recordTurn({ sessionId: 's', role: 'user', text: 'after' });
    await store.flush();
    assert.ok(store.unsnapshottedBytes > 0 && store.unsnapshottedBytes < 200);
    await store.close();
  });

  it('leaves a torn last line for later and skips a garbled one', async () => {
    const store = await openTestStore(temp.folder);
    store.recordTurn({ sessionId: 's', role: 'user', text: 'complete' });
    await store.close();
    const [name] = listJournals(temp.folder);
    const path = join(temp.folder, 'journals', name);
    const whole = readJournal(temp.folder, name, 0);
    appendFileSync(path, '{"kind":"turn","id":"torn"');
    const torn = readJournal(temp.folder, name, whole.offset);
    assert.deepEqual([torn.ops.length, torn.offset], [0, whole.offset], 'an unfinished line is not read');
    appendFileSync(path, ',"oops\n');
    const garbled = readJournal(temp.folder, name, whole.offset);
    assert.equal(garbled.skippedLines, 1);
    const reopened = await openTestStore(temp.folder);
    assert.equal(reopened.stats().turns, 1);
    await reopened.close();
  });

  it('does not write a snapshot while another process holds the lock', async () => {
    const { writeFileSync } = await import('node:fs');
    const { hostname } = await import('node:os');
    writeFileSync(join(temp.folder, 'snapshot.lock'), JSON.stringify({ host: hostname(), pid: process.ppid, at: new Date().toISOString() }));
    const store = await openTestStore(temp.folder);
    store.recordTurn({ sessionId: 's', role: 'user', text: 'x' });
    const result = await store.snapshot();
    assert.equal(result.done, false);
    assert.equal(readdirSync(temp.folder).includes('engram.sqlite'), false);
    await store.close();
  });

  it('breaks the lock of a dead owner', async () => {
    const { writeFileSync } = await import('node:fs');
    const { hostname } = await import('node:os');
    writeFileSync(join(temp.folder, 'snapshot.lock'), JSON.stringify({ host: hostname(), pid: 2 ** 22 + 12345, at: new Date().toISOString() }));
    const store = await openTestStore(temp.folder);
    store.recordTurn({ sessionId: 's', role: 'user', text: 'x' });
    assert.equal((await store.snapshot()).done, true);
    await store.close();
  });
});
