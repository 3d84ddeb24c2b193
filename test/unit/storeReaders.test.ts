import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { NotAStoreError, type MemoryStore } from '../../src/core/store/memoryStore';
import { engramAsync, finished, turnsFile } from '../support/storeFiles';
import { openTestStore, tempFolder } from '../support/tempStore';

/** Readers beside writers and a compactor that keeps folding journals into new generations. */
const child = join(__dirname, '..', 'support', 'storeChild.js');

describe('readers beside writers (real processes)', function () {
  this.timeout(180_000);
  let temp: ReturnType<typeof tempFolder>;
  let stopCompactor = (): unknown => undefined;
  beforeEach(() => (temp = tempFolder('engram-readers-')));
  afterEach(() => {
    stopCompactor();
    temp.remove();
  });

  it('never sees the turn count go down, whether it reopens or keeps reading, while two writers and a compactor run', async () => {
    const store = join(temp.folder, 'store');
    const seed = await finished(engramAsync(['import', turnsFile(temp.folder, 'seed.jsonl', 'seed', 1000), '--db', store]));
    assert.equal(seed.code, 0, seed.stderr);
    const compactor = spawn(process.execPath, [child, 'compact-forever', store], { stdio: ['ignore', 'pipe', 'inherit'] });
    await new Promise((resolve) => compactor.stdout?.once('data', resolve));
    stopCompactor = () => compactor.kill('SIGKILL');
    // Two writers, each a run of short imports: every import leaves a sealed journal for the compactor to fold and remove.
    const writer = async (session: string): Promise<{ code: number | null; stderr: string }[]> => {
      const results = [];
      for (let part = 0; part < 8; part++) {
        const file = turnsFile(temp.folder, `${session}-${part}.jsonl`, `${session}-${part}`, 375);
        results.push(await finished(engramAsync(['import', file, '--db', store])));
      }
      return results;
    };
    const imports = [writer('alpha'), writer('beta')];
    let running = true;
    void Promise.all(imports).then(() => (running = false));

    const window: MemoryStore = await openTestStore(store);
    let reopenedMax = 0;
    let windowMax = window.stats().turns;
    let reopens = 0;
    while (running) {
      try {
        const reader = await openTestStore(store, { readOnly: true });
        const turns = reader.stats().turns;
        await reader.close();
        assert.ok(turns >= reopenedMax, `a fresh reader saw ${turns} turns after one saw ${reopenedMax}`);
        reopenedMax = turns;
        reopens++;
      } catch (error) {
        if (!(error instanceof NotAStoreError)) throw error;
      }
      window.syncFromOtherWriters();
      const seen = window.stats().turns;
      assert.ok(seen >= windowMax, `the open window saw ${seen} turns after ${windowMax}`);
      windowMax = seen;
      // Let the child processes' events in: a loop of resolved promises alone would never see them end.
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const results = (await Promise.all(imports)).flat();
    assert.deepEqual(results.map((result) => result.code), results.map(() => 0), results.map((result) => result.stderr).join('\n'));
    compactor.kill('SIGKILL');
    await new Promise((resolve) => compactor.once('exit', resolve));
    window.syncFromOtherWriters();
    assert.equal(window.stats().turns, 7000, 'the open window ends with every turn');
    await window.close();
    const last = await openTestStore(store, { readOnly: true });
    assert.equal(last.stats().turns, 7000);
    await last.close();
    assert.ok(reopens >= 3, `the reader reopened ${reopens} times while the writers ran`);
  });
});
