import assert from 'node:assert/strict';
import { checkRuntime, ModelCalibration, planBudget } from '../../src/core/context/budget';
import { cl100kTokenCounter } from '../../src/core/shared/tokenCounter';
import { OllamaChatModel } from '../../src/core/llm/ollamaChatModel';
import { EngramMemory } from '../../src/core/turn/engramMemory';
import { MemoryToolRunner } from '../../src/core/turn/memoryTools';
import { OllamaTurnModel } from '../../src/core/turn/ollamaTurnModel';
import { TurnEngine } from '../../src/core/turn/turnEngine';
import type { TurnModel } from '../../src/core/turn/turnModel';
import { MemoryStore } from '../../src/core/store/memoryStore';
import { FakeOllama } from '../support/fakeOllama';
import { sqlWasmPath, tempFolder } from '../support/tempStore';

/** A model whose runtime reports whatever count the test says (as Ollama's prompt_eval_count). */
function countingModel(counted: () => number): TurnModel {
  return {
    id: 'counting', name: 'counting', vendor: 'ollama', systemDelivery: 'system message',
    window: async () => ({ tokens: 8192, replyReserve: 2048, why: 'num_ctx 8,192' }),
    async *send() {
      yield { kind: 'text', text: 'ok' };
      yield { kind: 'done', promptTokens: counted() };
    },
  };
}

describe('the runtime checks the estimate (prompt_eval_count beside Engram\'s count)', () => {
  let temp: ReturnType<typeof tempFolder>;
  let store: MemoryStore;
  beforeEach(async () => {
    temp = tempFolder();
    store = await MemoryStore.open({ folder: temp.folder, wasmPath: sqlWasmPath, tokens: cl100kTokenCounter, indexDelayMs: 3_600_000 });
  });
  afterEach(async () => {
    await store.close();
    temp.remove();
  });

  it('flags a turn whose prompt_eval_count exceeds the window, and the next turn budgets for the heavier count', async () => {
    const memory = new EngramMemory(store, cl100kTokenCounter);
    const engine = new TurnEngine({ memory, tokens: cl100kTokenCounter });
    const tools = new MemoryToolRunner(() => store);
    const first = await engine.run({ sessionId: 's', text: 'why does the build hang?' }, { model: countingModel(() => 9000), tools, onText: () => undefined });
    assert.equal(first.report?.runtime?.flagged, true);
    assert.equal(first.report?.runtime?.counted, 9000);
    assert.match(first.report?.runtime?.why ?? '', /counted 9,000 tokens, more than its 8,192-token window/);
    const second = await engine.run({ sessionId: 's', text: 'and the tests?' }, { model: countingModel(() => 400), tools, onText: () => undefined });
    assert.ok(engine.calibration.correction('counting')! > 1.5, `learned ${engine.calibration.correction('counting')}`);
    assert.ok(second.report!.budget < first.report!.budget * 0.75, `budget ${first.report!.budget} then ${second.report!.budget}`);
    assert.equal(second.report?.runtime?.flagged, false);
  });

  it('flags a count over the estimate by more than the margin kept, and leaves a close one alone', () => {
    const plan = planBudget({ window: 8192, replyReserve: 2048 });
    assert.equal(checkRuntime(4000, 3900, plan).flagged, false);
    const over = checkRuntime(3900 + plan.margin + 1, 3900, plan);
    assert.equal(over.flagged, true);
    assert.match(over.why, /more than Engram's estimate of 3,900/);
    assert.equal(checkRuntime(8192, 5000, plan).flagged, true, 'a count of the whole window: the runner likely cut');
  });

  it('learns at once when the model counts more, eases down slowly, and takes a cut prompt as a lower bound only', () => {
    const calibration = new ModelCalibration();
    assert.equal(calibration.observe('m', 1200, 1000, 8192), 1.2);
    assert.equal(calibration.observe('m', 1000, 1000, 8192), 1.18);
    assert.ok(calibration.observe('m', 8192, 9000, 8192)! >= 1.18, 'a cut prompt never lowers it');
  });

  it('against a stand-in whose tokenizer is half again as heavy: the first full turn is flagged, then the budget adapts and nothing is cut', async () => {
    const standIn = new FakeOllama({ models: [{ name: 'heavy', contextLength: 32768 }], tokenizer: { factor: 1.5 } });
    await standIn.start();
    try {
      const memory = new EngramMemory(store, cl100kTokenCounter);
      const engine = new TurnEngine({ memory, tokens: cl100kTokenCounter });
      const model = new OllamaTurnModel(new OllamaChatModel({ host: standIn.url }), 'heavy', 4096);
      const tools = new MemoryToolRunner(() => store);
      const flags: boolean[] = [];
      for (let i = 1; i <= 14; i++) {
        const text = `Turn ${i}: ` + Array.from({ length: 40 }, (_, j) => `step${j} of change ${i * 13 + j} in the parser`).join(', ');
        const result = await engine.run({ sessionId: 'heavy', text }, { model, tools, onText: () => undefined });
        flags.push(result.report?.runtime?.flagged ?? false);
      }
      await memory.summaries.settle();
      assert.ok(flags.includes(true), `flags ${flags.join(',')}`);
      assert.deepEqual(flags.slice(-4), [false, false, false, false], `flags ${flags.join(',')}`);
      for (const request of standIn.requests.filter((r) => r.truncation)) {
        assert.ok(request.truncation!.sentTokens <= request.truncation!.window, standIn.log.join('\n'));
      }
    } finally {
      await standIn.stop();
    }
  });
});
