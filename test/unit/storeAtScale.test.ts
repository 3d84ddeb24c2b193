import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadSqlJs } from '../../src/core/store/sqlJs';
import { loadDatabase } from '../../src/core/store/loadDatabase';
import { JournalWriter } from '../../src/core/store/journal';
import { readManifest } from '../../src/core/store/generations';
import { storeLayout } from '../../src/core/store/storeLayout';
import { searchStoredTurns } from '../../src/core/recall/turnSearch';
import { engram } from '../support/storeFiles';
import { openTestStore, sqlWasmPath, tempFolder } from '../support/tempStore';

const history = (session: string, count: number, words: string) =>
  Array.from({ length: count }, (_, i) => ({ sessionId: session, role: (i % 2 === 0 ? 'user' : 'assistant') as 'user' | 'assistant', text: `${words} number ${i}`, at: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString() }));

describe('the store at scale: writes on demand, the closing snapshot folded from memory', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof tempFolder>;
  beforeEach(() => (temp = tempFolder('engram-scale-')));
  afterEach(() => temp.remove());

  it('opened to write on demand, creates nothing while it reads, and its first write starts a journal that loses nothing', async () => {
    const seed = await openTestStore(temp.folder);
    seed.recordTurns(history('seed', 10, 'quokka ledger'));
    await seed.close({ snapshot: true });
    const before = readdirSync(join(temp.folder, 'journals')).sort();

    const reader = await openTestStore(temp.folder, { writeOnDemand: true });
    assert.equal(searchStoredTurns(reader, 'quokka ledger', { k: 3 }).length, 3);
    assert.equal(reader.journalName, undefined, 'no journal while it only reads');
    assert.deepEqual(readdirSync(join(temp.folder, 'journals')).sort(), before, 'nothing created on disk');

    // Another window writes meanwhile; then this one writes: both are kept.
    const other = await openTestStore(temp.folder);
    other.recordTurn({ sessionId: 'other', role: 'user', text: 'the walrus deploy key rotation' });
    await other.close();
    reader.syncFromOtherWriters();
    reader.recordTurn({ sessionId: 'late', role: 'user', text: 'the narwhal cache warms at nine' });
    assert.ok(reader.journalName, 'the first write started a journal');
    await reader.close();
    await assert.rejects(async () => reader.recordTurn({ sessionId: 'late', role: 'user', text: 'after close' }), /closed/);

    const again = await openTestStore(temp.folder, { readOnly: true });
    try {
      assert.equal(again.stats().turns, 12);
      assert.equal(searchStoredTurns(again, 'narwhal cache', { k: 1 })[0]?.text, 'the narwhal cache warms at nine');
      assert.equal(searchStoredTurns(again, 'walrus deploy', { k: 1 })[0]?.text, 'the walrus deploy key rotation');
    } finally {
      await again.close();
    }
  });

  it("folds its own database into the closing snapshot, with another writer's lines, and a load of it replays nothing", async () => {
    const importer = await openTestStore(temp.folder);
    for (let batch = 0; batch < 4; batch++) importer.recordTurns(history(`import-${batch}`, 250, `batch${batch} pelican harbour`));
    // Another writer appends while the import runs: its line must be in the snapshot, and its mark must say so.
    const other = JournalWriter.create(temp.folder, () => undefined);
    await other.append({ kind: 'turn', id: 'other-1', sessionId: 'other', role: 'user', text: 'the heron gateway timeout', at: new Date().toISOString(), tokens: 4, source: 'chat' });
    await other.close();
    await importer.close({ snapshot: true });

    const manifest = readManifest(storeLayout(temp.folder));
    assert.equal(manifest?.current?.generation, 1);
    assert.equal(manifest?.current?.turns, 1001);
    assert.deepEqual(Object.keys(manifest?.current?.marks ?? {}).sort(), readdirSync(join(temp.folder, 'journals')).filter((name) => name.endsWith('.jsonl')).sort());
    const loaded = loadDatabase(await loadSqlJs(sqlWasmPath), temp.folder, new Date());
    try {
      assert.equal(loaded.replayedOps, 0, 'the marks cover every journal line');
      assert.equal(loaded.base.source, 'current');
    } finally {
      loaded.db.close();
    }

    // A second import folds over the first generation: it becomes the previous one, and the search finds both.
    const second = await openTestStore(temp.folder);
    second.recordTurns(history('import-late', 100, 'osprey lighthouse'));
    await second.close({ snapshot: true });
    const after = readManifest(storeLayout(temp.folder));
    assert.equal(after?.current?.generation, 2);
    assert.equal(after?.previous?.crc32, manifest?.current?.crc32, 'the first generation is kept as the previous one');
    assert.ok(existsSync(storeLayout(temp.folder).previous));
    const reader = await openTestStore(temp.folder, { readOnly: true });
    try {
      assert.equal(reader.stats().turns, 1101);
      assert.equal(searchStoredTurns(reader, 'heron gateway', { k: 1 })[0]?.text, 'the heron gateway timeout');
      assert.equal(searchStoredTurns(reader, 'osprey lighthouse', { k: 300 }).length, 100);
      assert.equal(searchStoredTurns(reader, 'batch3 pelican harbour', { k: 300 }).filter((hit) => hit.text.startsWith('batch3')).length, 250);
    } finally {
      await reader.close();
    }
  });

  it('`engram compact` folds what a session left in its journal, and refuses a folder that is not a store', async () => {
    const seed = await openTestStore(temp.folder);
    seed.recordTurns(history('seed', 10, 'kestrel orchard'));
    await seed.close({ snapshot: true });
    const session = await openTestStore(temp.folder, { writeOnDemand: true });
    session.recordTurn({ sessionId: 'mcp:agent', role: 'user', text: 'the magpie build cache' });
    await session.close();
    const compacted = engram(['compact', '--db', temp.folder, '--json']);
    assert.equal(compacted.code, 0, compacted.stderr);
    assert.deepEqual((({ done, generation, turns }) => ({ done, generation, turns }))(JSON.parse(compacted.stdout) as { done: boolean; generation: number; turns: number }), { done: true, generation: 2, turns: 11 });
    const loaded = loadDatabase(await loadSqlJs(sqlWasmPath), temp.folder, new Date());
    try {
      assert.equal(loaded.replayedOps, 0, 'the session is in the snapshot');
    } finally {
      loaded.db.close();
    }
    const refused = engram(['compact', '--db', join(temp.folder, 'missing')]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--db must be an Engram store folder: .*missing does not exist/);
    assert.ok(!existsSync(join(temp.folder, 'missing')));
  });

  it('takes the full path after a removal: the forgotten words leave the snapshot file', async () => {
    const store = await openTestStore(temp.folder);
    store.recordTurns(history('keep', 20, 'albatross runway'));
    store.recordTurns(history('drop', 20, 'zeppelinsecretword hangar'));
    await store.snapshot();
    await store.forgetSessions(['drop']);
    store.recordTurns(history('more', 5, 'albatross taxiway'));
    await store.close({ snapshot: true });
    assert.ok(!readFileSync(storeLayout(temp.folder).snapshot).includes('zeppelinsecretword'), 'no trace of the forgotten words in the file');
    const reader = await openTestStore(temp.folder, { readOnly: true });
    try {
      assert.equal(reader.stats().turns, 25);
    } finally {
      await reader.close();
    }
  });
});
