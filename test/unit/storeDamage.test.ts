import assert from 'node:assert/strict';
import { existsSync, openSync, readdirSync, readFileSync, statSync, truncateSync, writeSync, closeSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listJournals } from '../../src/core/store/journal';
import { loadSqlJs } from '../../src/core/store/sqlJs';
import { engram, turnsFile } from '../support/storeFiles';
import { openTestStore, sqlWasmPath, tempFolder } from '../support/tempStore';

/** Damaged files of a store, made for real after normal runs of the CLI as shipped; every count is exact. */
function stats(store: string): { turns: number; stderr: string; code: number | null } {
  const run = engram(['stats', '--db', store, '--json']);
  return { turns: run.code === 0 ? JSON.parse(run.stdout).turns : -1, stderr: run.stderr, code: run.code };
}

function importOk(file: string, store: string): string {
  const run = engram(['import', file, '--db', store, '--json']);
  assert.equal(run.code, 0, run.stderr);
  return run.stderr;
}

function overwriteMiddle(path: string, bytes: number): void {
  const size = statSync(path).size;
  const fd = openSync(path, 'r+');
  writeSync(fd, Buffer.alloc(bytes, 0xa5), 0, bytes, Math.floor(size / 2));
  closeSync(fd);
}

describe('store damage (real files, the CLI as shipped)', function () {
  this.timeout(120_000);
  let temp: ReturnType<typeof tempFolder>;
  let store: string;
  beforeEach(() => {
    temp = tempFolder('engram-damage-');
    store = join(temp.folder, 'store');
  });
  afterEach(() => temp.remove());

  /** Two normal imports: 2000 turns, then 200; the second makes the first snapshot the previous generation. */
  function twoImports(): void {
    importOk(turnsFile(temp.folder, 'alpha.jsonl', 'alpha', 2000), store);
    importOk(turnsFile(temp.folder, 'beta.jsonl', 'beta', 200), store);
    assert.equal(stats(store).turns, 2200);
  }

  it('finds 4 KB of garbage in the middle of the snapshot, says so, and loses nothing', () => {
    twoImports();
    const snapshot = join(store, 'engram.sqlite');
    const size = statSync(snapshot).size;
    overwriteMiddle(snapshot, 4096);
    const after = stats(store);
    assert.equal(after.turns, 2200, 'every acknowledged turn is there');
    assert.match(after.stderr, /bytes changed on disk/);
    assert.match(after.stderr, /2200 turns came back \(2000 from the previous snapshot and 200 from the journals\)/);
    const kept = readdirSync(store).filter((name) => name.startsWith('engram.sqlite.damaged-'));
    assert.equal(kept.length, 1, 'the damaged file is kept');
    assert.equal(statSync(join(store, kept[0])).size, size);
    importOk(turnsFile(temp.folder, 'gamma.jsonl', 'gamma', 100), store);
    assert.deepEqual(stats(store), { turns: 2300, stderr: '', code: 0 }, 'the next import adds to the whole memory, silently healthy');
  });

  it('brings every turn back when the snapshot is emptied after a single normal run', () => {
    importOk(turnsFile(temp.folder, 'alpha.jsonl', 'alpha', 2000), store);
    truncateSync(join(store, 'engram.sqlite'), 0);
    const after = stats(store);
    assert.equal(after.turns, 2000);
    assert.match(after.stderr, /it is empty \(0 bytes\).*2000 turns came back \(all from the journals\)/);
  });

  it('brings every turn back when the snapshot is emptied or cut off after two runs', () => {
    twoImports();
    truncateSync(join(store, 'engram.sqlite'), 0);
    const emptied = stats(store);
    assert.equal(emptied.turns, 2200);
    assert.match(emptied.stderr, /2200 turns came back \(2000 from the previous snapshot and 200 from the journals\)/);
    importOk(turnsFile(temp.folder, 'gamma.jsonl', 'gamma', 100), store);
    const snapshot = join(store, 'engram.sqlite');
    truncateSync(snapshot, Math.floor(statSync(snapshot).size / 2));
    const cut = stats(store);
    assert.equal(cut.turns, 2300);
    assert.match(cut.stderr, /truncated/);
  });

  it('opens with its journal turns when both generations are damaged, says exactly what was lost, and blames no other window', async () => {
    twoImports();
    // The second import's journal (200 turns) is still there; the first one's went when the second snapshot was installed.
    overwriteMiddle(join(store, 'engram.sqlite'), 4096);
    truncateSync(join(store, 'engram.sqlite.previous'), 0);
    const window = await openTestStore(store);
    assert.equal(window.stats().turns, 200, 'the turns still in the journals');
    assert.deepEqual(
      (({ recoveredTurns, fromPrevious, fromJournals, lost }) => ({ recoveredTurns, fromPrevious, fromJournals, lost: lost && { ...lost, at: '' } }))(window.damage!),
      { recoveredTurns: 200, fromPrevious: 0, fromJournals: 200, lost: { generation: 2, at: '', turns: 2200, cameBack: 200, lostTurns: 2000 } },
    );
    assert.match(window.damage?.previousReason ?? '', /it is empty \(0 bytes\)/);
    await window.close();
    const kept = readdirSync(store).filter((name) => /\.damaged-/.test(name)).sort();
    assert.deepEqual(kept.map((name) => name.replace(/\.damaged-.*/, '')), ['engram.sqlite', 'engram.sqlite.previous'], 'both damaged files are kept');

    // Every later command opens at once: the count is the same, nothing is said again, and nobody is told to "try again".
    assert.deepEqual(stats(store), { turns: 200, stderr: '', code: 0 });
    importOk(turnsFile(temp.folder, 'gamma.jsonl', 'gamma', 100), store);
    importOk(turnsFile(temp.folder, 'delta.jsonl', 'delta', 50), store);
    assert.deepEqual(stats(store), { turns: 350, stderr: '', code: 0 });
    assert.equal(readdirSync(store).filter((name) => /\.damaged-/.test(name)).length, 2, 'new generations overwrite neither kept file');
  });

  it('tells the command line what both damaged generations cost', () => {
    twoImports();
    overwriteMiddle(join(store, 'engram.sqlite'), 4096);
    overwriteMiddle(join(store, 'engram.sqlite.previous'), 4096);
    const after = stats(store);
    assert.equal(after.turns, 200);
    assert.doesNotMatch(after.stderr, /kept changing|other windows/);
    assert.match(after.stderr, /200 turns came back \(all from the journals\)\. The previous snapshot could not be used either \(its bytes changed on disk/);
    assert.match(after.stderr, /The last snapshot \(generation 2, written [^)]+\) held 2200 turns: 200 of them came back from the journals and 2000 were only in the damaged snapshots and are lost\./);
  });

  it('refuses another program\'s SQLite file and leaves it, and the folder, untouched', async () => {
    const sql = await loadSqlJs(sqlWasmPath);
    const db = new sql.Database();
    db.exec("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users (name) VALUES ('ada'), ('grace'); PRAGMA user_version = 3");
    const bytes = Buffer.from(db.export());
    db.close();
    const { mkdirSync } = await import('node:fs');
    mkdirSync(store);
    writeFileSync(join(store, 'engram.sqlite'), bytes);
    for (const args of [['stats'], ['import', turnsFile(temp.folder, 'a.jsonl', 'a', 10)], ['recall', 'ada']]) {
      const run = engram([...args, '--db', store, '--json']);
      assert.equal(run.code, 1, `${args[0]} refuses`);
      assert.match(run.stderr, /is not an Engram memory store \(it holds tables Engram never makes: users\)/);
    }
    assert.deepEqual(readdirSync(store), ['engram.sqlite'], 'nothing was created beside it');
    assert.ok(readFileSync(join(store, 'engram.sqlite')).equals(bytes), 'the file is byte for byte as it was');
  });

  it('skips and reports a journal line with flipped bytes, and keeps that journal', async () => {
    const writer = await openTestStore(store);
    for (let i = 0; i < 100; i++) writer.recordTurn({ sessionId: 's', role: 'user', text: `line ${i} of the journal` });
    await writer.close();
    const [name] = listJournals(store);
    const path = join(store, 'journals', name);
    const text = readFileSync(path, 'latin1');
    const at = text.indexOf('line 50 of');
    writeFileSync(path, text.slice(0, at) + 'l1ne' + text.slice(at + 4), 'latin1');
    const after = stats(store);
    assert.equal(after.turns, 99, 'the damaged line is not applied; every other one is');
    assert.match(after.stderr, /1 journal line\(s\) did not verify and were skipped, none applied \(.*checksum does not match/);
    const compactor = await openTestStore(store);
    const result = await compactor.snapshot();
    await compactor.close();
    assert.equal(result.badLines, 1);
    assert.ok(existsSync(path), 'a journal with a damaged line is kept for whoever wants to look at it');
    assert.equal(stats(store).turns, 99);
  });

  it('loses nothing when a journal line is damaged after its turn reached a snapshot', () => {
    importOk(turnsFile(temp.folder, 'alpha.jsonl', 'alpha', 300), store);
    const [name] = listJournals(store);
    const path = join(store, 'journals', name);
    const text = readFileSync(path, 'latin1');
    writeFileSync(path, text.replace('alpha turn 7:', 'alpha turn 7;'), 'latin1');
    const after = stats(store);
    assert.deepEqual([after.turns, after.stderr], [300, ''], 'the snapshot holds the turn; the journal is not even read');
  });

  it('sets the snapshot aside when a read fails "malformed" after open, and rebuilds without losing a turn', async () => {
    twoImports();
    const told: unknown[] = [];
    const window = await openTestStore(store, { onDamage: (damage) => told.push(damage) });
    let failures = 1;
    // As SQLite answers a read that reaches a damaged page the checks at open did not see.
    const turns = window.read((db) => {
      if (failures-- > 0) throw new Error('database disk image is malformed');
      return Number(db.exec('SELECT COUNT(*) FROM turns')[0].values[0][0]);
    });
    assert.equal(turns, 2200, 'the read runs again on the rebuilt memory');
    assert.equal(told.length, 1, 'the person is told');
    assert.deepEqual(
      (({ recoveredTurns, fromPrevious, fromJournals }) => ({ recoveredTurns, fromPrevious, fromJournals }))(window.damage ?? { recoveredTurns: 0, fromPrevious: 0, fromJournals: 0 }),
      { recoveredTurns: 2200, fromPrevious: 2000, fromJournals: 200 },
    );
    assert.ok(window.damage?.keptAt && existsSync(window.damage.keptAt), 'the file it distrusts is kept aside');
    window.recordTurn({ sessionId: 'after', role: 'user', text: 'written after the rebuild' });
    await window.close({ snapshot: true });
    assert.deepEqual(stats(store), { turns: 2201, stderr: '', code: 0 });
  });
});

