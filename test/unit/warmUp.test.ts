import assert from 'node:assert/strict';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { memoryStats } from '../../src/core/context/memoryStats';
import { EngramMemory } from '../../src/core/turn/engramMemory';
import { MemoryToolRunner } from '../../src/core/turn/memoryTools';
import { TurnEngine } from '../../src/core/turn/turnEngine';
import { answeringModel } from '../../src/core/turn/turnModel';
import { runWarmUp, warmUpSteps } from '../../src/core/turn/warmUp';
import { engramWithInput } from '../support/storeFiles';
import { openTestStore, tempFolder, wordCounter } from '../support/tempStore';

const cli = join(__dirname, '..', '..', '..', 'dist', 'cli.js');

function journalBytes(folder: string): number {
  const journals = join(folder, 'journals');
  return existsSync(journals) ? readdirSync(journals).reduce((sum, name) => sum + statSync(join(journals, name)).size, 0) : 0;
}

describe('the warm-up before the first turn', () => {
  let temp: ReturnType<typeof tempFolder>;
  beforeEach(() => (temp = tempFolder()));
  afterEach(() => temp.remove());

  it('runs every step and leaves the memory exactly as it was: no turn, no fact, no journal byte', async () => {
    const folder = join(temp.folder, 'store');
    const store = await openTestStore(folder);
    try {
      const memory = new EngramMemory(store, wordCounter);
      memory.facts.remember('editor', 'Helix');
      await store.flush();
      const before = { stats: memoryStats(store), journal: journalBytes(folder), statements: memory.facts.list().length };
      const engine = new TurnEngine({ memory, tokens: wordCounter });
      const errors: unknown[] = [];
      const steps = warmUpSteps(engine, memory, { model: answeringModel('warm-up', () => ''), tools: new MemoryToolRunner(() => store) });
      const ms = await runWarmUp(steps, (error) => errors.push(error));
      await store.flush();
      assert.deepEqual(errors, [], 'no step fails');
      assert.ok(ms > 0 && steps.length >= 6);
      assert.deepEqual({ stats: memoryStats(store), journal: journalBytes(folder), statements: memory.facts.list().length }, before);
      assert.equal(store.recentTurns('engram-warm-up', 5).length, 0, 'the rehearsed turn was rolled back');
    } finally {
      await store.close();
    }
  });

  it('bench-first-turn measures the first turn of a fresh process, warmed and cold', async function () {
    this.timeout(120_000);
    assert.ok(existsSync(cli), 'dist/cli.js is missing: run npm run build');
    const db = join(temp.folder, 'bench');
    for (const warm of [true, false]) {
      const run = await engramWithInput(['bench-first-turn', '--db', db, ...(warm ? ['--warm'] : [])], '');
      assert.equal(run.code, 0, run.stderr);
      const figure = JSON.parse(/^firstTurn=(\{.*\})$/m.exec(run.stdout)?.[1] ?? 'null') as { firstTurnMs: number; warmUpMs: number; laterTurnMs: number };
      assert.ok(figure.firstTurnMs > 0 && figure.laterTurnMs > 0, run.stdout);
      assert.equal(figure.warmUpMs > 0, warm, 'the warm-up runs only when asked');
    }
  });
});
