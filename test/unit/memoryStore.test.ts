import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cl100kTokenCounter } from '../../src/core/context/tokenCounter';
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

  it('sets a zero-byte store file aside instead of taking it as an empty memory', async () => {
    const snapshot = join(temp.folder, 'engram.sqlite');
    writeFileSync(snapshot, '');
    const store = await openTestStore(temp.folder);
    assert.ok(store.damage, 'damage is reported');
    assert.match(store.damage.reason, /empty/);
    assert.ok(existsSync(store.damage.keptAt), 'the damaged file is kept');
    assert.equal(statSync(store.damage.keptAt).size, 0);
    await store.close();
    assert.ok(statSync(snapshot).size > 0, 'a healthy store replaces it');
  });

  it('sets a truncated store file aside and never overwrites the damaged copy', async () => {
    const store = await openTestStore(temp.folder);
    for (let i = 0; i < 300; i++) store.recordTurn({ sessionId: 's', role: 'user', text: `turn ${i} `.repeat(40) });
    await store.close();
    const snapshot = join(temp.folder, 'engram.sqlite');
    const whole = readFileSync(snapshot);
    writeFileSync(snapshot, whole.subarray(0, Math.floor(whole.length / 3)));

    const first = await openTestStore(temp.folder);
    assert.ok(first.damage);
    assert.equal(first.stats().turns, 0);
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

  it('keeps the change and reports it when a save fails', async () => {
    const errors: Error[] = [];
    const store = await openTestStore(temp.folder, { onSaveError: (error) => errors.push(error) });
    store.recordTurn({ sessionId: 's', role: 'user', text: 'first' });
    await store.flush();
    store.recordTurn({ sessionId: 's', role: 'user', text: 'second' });
    // A folder in the snapshot's place makes the final rename fail, as a full or read-only disk would.
    const snapshot = join(temp.folder, 'engram.sqlite');
    const saved = readFileSync(snapshot);
    renameSync(snapshot, `${snapshot}.aside`);
    mkdirSync(snapshot);
    await assert.rejects(store.flush(), /Saving the memory store/);
    rmdirSync(snapshot);
    renameSync(`${snapshot}.aside`, snapshot);
    assert.equal(errors.length, 1, 'the failure is reported');
    assert.deepEqual(readFileSync(snapshot), saved, 'the previous state is kept on disk');
    assert.equal(readdirSync(temp.folder).filter((name) => name.includes('.tmp-')).length, 0, 'no temp file is left');
    assert.deepEqual(store.turns('s').map((t) => t.text), ['first', 'second'], 'nothing is lost in memory');
    await store.close();
    const reopened = await openTestStore(temp.folder);
    assert.equal(reopened.stats().turns, 2, 'the retried save wrote it');
    await reopened.close();
  });
});
