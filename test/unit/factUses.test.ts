import assert from 'node:assert/strict';
import { memoriesUsed } from '../../src/core/context/reportRepository';
import { defaultAllowlist } from '../../src/core/memory/allowlist';
import { Facts } from '../../src/core/memory/facts';
import { openTestStore, tempFolder, wordCounter } from '../support/tempStore';

/** access_count is real: every prompt that carried a fact counts, though the counting waits for a quiet moment. */
describe('fact uses (access_count)', function () {
  this.timeout(30_000);
  let temp: ReturnType<typeof tempFolder>;
  beforeEach(() => (temp = tempFolder('engram-fact-uses-')));
  afterEach(() => temp.remove());

  function carried(factIds: readonly string[], n: number, at: string) {
    return {
      kind: 'contextReport' as const,
      id: `report-${n}`,
      at,
      report: { turnId: `turn-${n}`, sessionId: 's', at, blocks: [], retrieval: factIds.map((memoryId) => ({ kind: 'fact' as const, memoryId, via: 'prompt' as const, label: '' })) },
    };
  }

  const uses = (store: Awaited<ReturnType<typeof openTestStore>>) =>
    store.read((db) => Object.fromEntries((db.exec('SELECT value, access_count FROM statements')[0]?.values ?? []).map(([value, count]) => [String(value), Number(count)])));

  it('counts every prompt that carried a fact, when read, after an idle moment, and after a snapshot and reopen', async () => {
    const store = await openTestStore(temp.folder);
    const facts = new Facts(store, () => defaultAllowlist, wordCounter);
    const berlin = facts.remember('location', 'Berlin');
    const calico = facts.remember('employer', 'Calico');
    const at = new Date().toISOString();
    for (let n = 0; n < 3; n++) store.applyOperation(carried(n < 2 ? [berlin.id, calico.id] : [berlin.id], n, at));
    assert.deepEqual(store.read((db) => memoriesUsed(db)), { used: 2, of: 2 }, 'reading the use settles what waited');
    assert.deepEqual(uses(store), { Berlin: 3, Calico: 2 });

    store.applyOperation(carried([calico.id], 3, at));
    store.indexPending();
    assert.deepEqual(uses(store), { Berlin: 3, Calico: 3 }, 'the quiet moment adds the waiting uses');

    store.applyOperation(carried([berlin.id], 4, at));
    store.applyOperation(carried([berlin.id], 4, at));
    await store.snapshot();
    await store.close();
    const reopened = await openTestStore(temp.folder, { readOnly: true });
    assert.deepEqual(uses(reopened), { Berlin: 4, Calico: 3 }, 'a report applied twice counts once; the snapshot holds every use');
    await reopened.close();
  });
});
