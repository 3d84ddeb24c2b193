import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { turnsFile } from '../support/storeFiles';
import { openTestStore, tempFolder } from '../support/tempStore';

/** Fault tests with real processes: concurrent writers, and SIGKILL in the middle of writing. */
const root = join(__dirname, '..', '..', '..');
const cli = join(root, 'dist', 'cli.js');
const child = join(__dirname, '..', 'support', 'storeChild.js');

function exited(process: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => process.once('exit', (code) => resolve(code)));
}

function journalBytes(store: string): number {
  const folder = join(store, 'journals');
  if (!existsSync(folder)) return 0;
  return readdirSync(folder).reduce((sum, name) => sum + statSync(join(folder, name)).size, 0);
}

async function waitUntil(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('store faults (real processes)', function () {
  this.timeout(120_000);
  let temp: ReturnType<typeof tempFolder>;
  beforeEach(() => (temp = tempFolder('engram-faults-')));
  afterEach(() => temp.remove());

  it('loses nothing when two imports write one store at the same time', async () => {
    const store = join(temp.folder, 'store');
    const first = turnsFile(temp.folder, 'a.jsonl', 'alpha', 3000);
    const second = turnsFile(temp.folder, 'b.jsonl', 'beta', 3000);
    const runs = [first, second].map((file) => spawn(process.execPath, [cli, 'import', file, '--db', store, '--json'], { stdio: 'ignore' }));
    assert.deepEqual(await Promise.all(runs.map(exited)), [0, 0]);
    const reopened = await openTestStore(store, { readOnly: true });
    assert.equal(reopened.stats().turns, 6000);
    assert.equal(reopened.turns('alpha').length, 3000);
    assert.equal(reopened.turns('beta').at(-1)?.text.startsWith('beta turn 2999:'), true);
    await reopened.close();
  });

  it('keeps every earlier turn readable when an import is killed with SIGKILL mid-way', async () => {
    const store = join(temp.folder, 'store');
    const earlier = spawn(process.execPath, [cli, 'import', turnsFile(temp.folder, 'early.jsonl', 'early', 500), '--db', store]);
    assert.equal(await exited(earlier), 0);
    const big = turnsFile(temp.folder, 'big.jsonl', 'late', 40_000);
    const doomed = spawn(process.execPath, [cli, 'import', big, '--db', store], { stdio: 'ignore' });
    const before = journalBytes(store);
    await waitUntil(() => journalBytes(store) > before + 20_000, 'the import to journal some turns');
    doomed.kill('SIGKILL');
    await exited(doomed);

    const reopened = await openTestStore(store);
    assert.equal(reopened.damage, undefined, 'nothing is damaged');
    assert.equal(reopened.turns('early').length, 500, 'every turn of the earlier import is there');
    const late = reopened.turns('late');
    assert.ok(late.length > 0 && late.length < 40_000, `a prefix of the killed import is kept (${late.length})`);
    late.forEach((turn, i) => assert.ok(turn.text.startsWith(`late turn ${i}:`), `turn ${i} is whole`));
    await reopened.close({ snapshot: true });
  });

  it('loses nothing when a snapshot is killed with SIGKILL while writing', async () => {
    const store = join(temp.folder, 'store');
    const seed = spawn(process.execPath, [cli, 'import', turnsFile(temp.folder, 'seed.jsonl', 'seed', 8000, 40), '--db', store]);
    assert.equal(await exited(seed), 0);
    const writer = await openTestStore(store);
    for (let i = 0; i < 200; i++) writer.recordTurn({ sessionId: 'open', role: 'user', text: `still open ${i}` });
    await writer.flush();
    for (const delayMs of [40, 120, 260]) {
      const compactor = spawn(process.execPath, [child, 'compact-forever', store], { stdio: ['ignore', 'pipe', 'inherit'] });
      await new Promise((resolve) => compactor.stdout?.once('data', resolve));
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      compactor.kill('SIGKILL');
      await exited(compactor);
      const reader = await openTestStore(store, { readOnly: true });
      assert.equal(reader.damage, undefined, `the snapshot is whole after a kill at ${delayMs} ms`);
      assert.equal(reader.stats().turns, 8200, `every turn is there after a kill at ${delayMs} ms`);
      await reader.close();
    }
    await writer.close({ snapshot: true });
    const leftovers = readdirSync(store).filter((name) => name.includes('.tmp-'));
    assert.deepEqual(leftovers.filter((name) => Date.now() - statSync(join(store, name)).mtimeMs > 60_000), []);
  });
});
