import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cl100kTokenCounter } from '../../src/core/shared/tokenCounter';
import { schemaVersion, StoreTooNewError } from '../../src/core/store/migrations';
import { loadSqlJs } from '../../src/core/store/sqlJs';
import { openTestStore, sqlWasmPath, tempFolder } from '../support/tempStore';

describe('memory store', () => {
  let temp: ReturnType<typeof tempFolder>;
  beforeEach(() => (temp = tempFolder()));
  afterEach(() => temp.remove());

  it('records turns in order per session and reads them back after reopening', async () => {
    const store = await openTestStore(temp.folder);
    store.recordTurn({ sessionId: 's1', role: 'user', text: 'why does this test hang?' });
    store.recordTurn({ sessionId: 's1', role: 'assistant', text: 'It awaits a promise that never settles.' });
    store.recordTurn({ sessionId: 's2', role: 'user', text: 'another chat' });
    await store.close();

    const reopened = await openTestStore(temp.folder);
    const turns = reopened.turns('s1');
    assert.deepEqual(turns.map((t) => [t.seq, t.role, t.text]), [
      [1, 'user', 'why does this test hang?'],
      [2, 'assistant', 'It awaits a promise that never settles.'],
    ]);
    assert.equal(turns[0].tokens, 5, 'the token count is stored with the row');
    assert.deepEqual({ turns: reopened.stats().turns, sessions: reopened.stats().sessions }, { turns: 3, sessions: 2 });
    await reopened.close();
  });

  it('treats a write with a known id as already done', async () => {
    const store = await openTestStore(temp.folder);
    const first = store.recordTurn({ id: 'op-1', sessionId: 's', role: 'user', text: 'once' });
    const again = store.recordTurn({ id: 'op-1', sessionId: 's', role: 'user', text: 'once' });
    assert.equal(first.created, true);
    assert.equal(again.created, false);
    assert.equal(store.stats().turns, 1);
    await store.close();
  });

  it('stores hostile text intact: a 1 MB paste, binary junk and <|endoftext|>', async () => {
    const store = await openTestStore(temp.folder, { tokens: cl100kTokenCounter });
    const big = 'x'.repeat(1024 * 1024);
    const junk = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256)).toString('latin1') + '\u0000\uFFFD\uD83D\uDE00';
    const special = 'please print <|endoftext|> literally <|im_start|>';
    for (const text of [big, junk, special]) store.recordTurn({ sessionId: 'h', role: 'user', text });
    await store.close();
    const reopened = await openTestStore(temp.folder);
    assert.deepEqual(reopened.turns('h').map((t) => t.text), [big, junk, special]);
    assert.ok(reopened.turns('h')[2].tokens > 5, 'special tokens are counted as text, not refused');
    await reopened.close();
  });

  it('sets a zero-byte snapshot aside instead of taking it as an empty memory', async () => {
    const snapshot = join(temp.folder, 'engram.sqlite');
    writeFileSync(snapshot, '');
    const store = await openTestStore(temp.folder);
    assert.ok(store.damage, 'damage is reported');
    assert.match(store.damage.reason, /empty/);
    const keptAt = store.damage.keptAt ?? '';
    assert.ok(existsSync(keptAt), 'the damaged file is kept');
    assert.equal(statSync(keptAt).size, 0);
    store.recordTurn({ sessionId: 's', role: 'user', text: 'after the damage' });
    await store.snapshot();
    await store.close();
    assert.ok(statSync(snapshot).size > 0, 'a healthy snapshot replaces it');
  });

  it('rebuilds from the journals when the snapshot is truncated, and never overwrites a damaged copy', async () => {
    const store = await openTestStore(temp.folder);
    for (let i = 0; i < 300; i++) store.recordTurn({ sessionId: 's', role: 'user', text: `turn ${i} `.repeat(40) });
    await store.snapshot();
    for (let i = 300; i < 310; i++) store.recordTurn({ sessionId: 's', role: 'user', text: `turn ${i}` });
    await store.close();
    const snapshot = join(temp.folder, 'engram.sqlite');
    const whole = readFileSync(snapshot);
    writeFileSync(snapshot, whole.subarray(0, Math.floor(whole.length / 3)));

    const first = await openTestStore(temp.folder);
    assert.ok(first.damage);
    assert.equal(first.damage.recoveredTurns, 310, 'every turn is still in a journal, so every turn comes back');
    assert.equal(first.turns('s').at(-1)?.text, 'turn 309');
    await first.close();
    writeFileSync(snapshot, 'not a database at all, just text that is long enough to pass the size check'.repeat(3));
    const second = await openTestStore(temp.folder);
    assert.ok(second.damage);
    assert.notEqual(second.damage.keptAt, first.damage.keptAt);
    await second.close();
    const kept = readdirSync(temp.folder).filter((name) => name.includes('.damaged-'));
    assert.equal(kept.length, 2, 'both damaged files are kept');
    assert.ok(kept.some((name) => statSync(join(temp.folder, name)).size === Math.floor(whole.length / 3)));
  });

  it('refuses a store written by a newer schema and leaves it untouched', async () => {
    const sql = await loadSqlJs(sqlWasmPath);
    const db = new sql.Database();
    db.exec(`CREATE TABLE future (x); PRAGMA user_version = ${schemaVersion + 1}`);
    const snapshot = join(temp.folder, 'engram.sqlite');
    const bytes = db.export();
    writeFileSync(snapshot, bytes);
    db.close();
    await assert.rejects(openTestStore(temp.folder), StoreTooNewError);
    assert.deepEqual(new Uint8Array(readFileSync(snapshot)), bytes);
  });

  it('reports a failed journal write, keeps the change, and writes it on the next flush', async () => {
    const errors: Error[] = [];
    const store = await openTestStore(temp.folder, { onWriteError: (error) => errors.push(error) });
    // A folder where the journal file should be makes the write fail, as a full or read-only disk would.
    const journal = join(temp.folder, 'journals', store.journalName ?? '');
    mkdirSync(journal, { recursive: true });
    store.recordTurn({ sessionId: 's', role: 'user', text: 'said while the disk was failing' });
    await assert.rejects(store.flush(), /Writing to the memory journal failed/);
    assert.equal(errors.length >= 1, true, 'the failure is reported');
    assert.deepEqual(store.turns('s').map((t) => t.text), ['said while the disk was failing'], 'nothing is lost in memory');
    rmdirSync(journal);
    await store.flush();
    await store.close();
    const reopened = await openTestStore(temp.folder);
    assert.deepEqual(reopened.turns('s').map((t) => t.text), ['said while the disk was failing'], 'the retried write stored it');
    await reopened.close();
  });
});
