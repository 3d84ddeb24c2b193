import assert from 'node:assert/strict';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeJournalLine } from '../../src/core/store/journalLine';
import { registeredKinds } from '../../src/core/store/operationRegistry';
import { compactInWorker } from '../../src/core/store/compactInWorker';
import { compactStore } from '../../src/core/store/compaction';
import { defaultAllowlist } from '../../src/core/memory/allowlist';
import { BehaviorBook } from '../../src/core/memory/behaviorBook';
import { Facts } from '../../src/core/memory/facts';
import { engram } from '../support/storeFiles';
import { openTestStore, sqlWasmPath, tempFolder, wordCounter } from '../support/tempStore';

/** The store knows only its own operation kinds; every entry point registers the domains' before replaying a journal. */
const worker = join(__dirname, '..', '..', '..', 'dist', 'snapshotWorker.js');

describe('operation kinds: registered by each domain, known to every entry point', function () {
  this.timeout(60_000);
  let temp: ReturnType<typeof tempFolder>;
  beforeEach(() => (temp = tempFolder('engram-registry-')));
  afterEach(() => temp.remove());

  /** A store whose journal holds a turn, a confirmed fact, a lesson and a context report, with no snapshot yet. */
  async function journalOfEveryDomain(): Promise<string> {
    const store = await openTestStore(temp.folder);
    const facts = new Facts(store, () => defaultAllowlist, wordCounter);
    const turn = store.recordTurn({ sessionId: 's', role: 'user', text: 'I work at Calico' });
    assert.deepEqual(facts.captureFromTurn(turn).learned.map((s) => s.value), ['Calico']);
    new BehaviorBook(store, wordCounter).propose('Check the employer first', 'the user corrected it', { turnId: turn.id });
    store.applyOperation({ kind: 'contextReport', id: 'r1', at: turn.at, report: { turnId: turn.id, sessionId: 's', blocks: [], retrieval: [], at: turn.at } });
    await store.close();
    return temp.folder;
  }

  it('has the store\'s own kinds and every domain\'s after registration', () => {
    assert.deepEqual(registeredKinds(), ['behavior', 'contextReport', 'coolSessions', 'forgetSessions', 'forgetTurns', 'importSession', 'statement', 'summary', 'turn']);
  });

  it('the snapshot worker folds every domain\'s operations', async () => {
    const folder = await journalOfEveryDomain();
    const result = await compactInWorker(worker, folder, sqlWasmPath);
    assert.deepEqual([result.done, result.badLines], [true, 0]);
    const reopened = await openTestStore(folder, { readOnly: true });
    const facts = reopened.read((db) => db.exec("SELECT value FROM statements WHERE status = 'confirmed'")[0]?.values.flat());
    const lessons = reopened.read((db) => db.exec('SELECT COUNT(*) FROM behaviors')[0]?.values[0][0]);
    const reports = reopened.read((db) => db.exec('SELECT COUNT(*) FROM context_reports')[0]?.values[0][0]);
    assert.deepEqual([facts, lessons, reports], [['Calico'], 1, 1]);
    await reopened.close();
  });

  it('the CLI replays every domain\'s operations', async () => {
    const folder = await journalOfEveryDomain();
    const run = engram(['stats', '--db', folder, '--json']);
    assert.equal(run.stderr, '', 'no journal line is skipped');
    assert.deepEqual(JSON.parse(run.stdout).facts, { proposed: 0, confirmed: 1, retired: 0, rejected: 0 });
  });

  it('never applies a kind nobody registered, and refuses to fold past it', async () => {
    const folder = await journalOfEveryDomain();
    const store = await openTestStore(folder);
    store.recordTurn({ sessionId: 's', role: 'user', text: 'one more' });
    await store.flush();
    appendFileSync(join(folder, 'journals', store.journalName ?? ''), encodeJournalLine({ kind: 'fromTheFuture', id: 'f1' }));
    await store.close();
    const reader = await openTestStore(folder, { readOnly: true });
    assert.deepEqual(reader.skippedJournalLines.map((line) => [line.unknownKind, line.reason]), [[true, 'its kind "fromTheFuture" is not one this version knows']]);
    assert.equal(reader.stats().turns, 2);
    await reader.close();
    await assert.rejects(compactStore(folder, sqlWasmPath), /cannot apply.*nothing was folded/);
  });
});
