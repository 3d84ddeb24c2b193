import assert from 'node:assert/strict';
import { cl100kTokenCounter } from '../../src/core/shared/tokenCounter';
import { OllamaChatModel } from '../../src/core/llm/ollamaChatModel';
import { EngramMemory } from '../../src/core/turn/engramMemory';
import { MemoryToolRunner, runRecall } from '../../src/core/turn/memoryTools';
import { OllamaTurnModel } from '../../src/core/turn/ollamaTurnModel';
import { TurnEngine } from '../../src/core/turn/turnEngine';
import { useStandIn } from '../support/standInHarness';
import { MemoryStore } from '../../src/core/store/memoryStore';

const question = 'What did I tell you earlier about the staging bucket name?';

/** Some 120 tokens of talk about the release, none of it about the bucket's name. */
function longTurn(i: number): string {
  return `Part ${i} of the release checklist: ` + Array.from({ length: 24 }, (_, j) => `step${(i * 7 + j) % 41} check the rollout notes and the staging dashboard`).join(', ');
}

describe('recall leaves out what the prompt already carries', () => {
  const running = useStandIn({ models: [{ name: 'stand-in', contextLength: 131072 }], defaultRuntimeContext: 4096 }, { store: true });
  const standIn = running.standIn;
  let store: MemoryStore;
  beforeEach(() => (store = running.store));

  it('skips the current question and its echo, and finds the turn that answers it, whole, within the budget the report shows', async () => {
    const memory = new EngramMemory(store, cl100kTokenCounter);
    const engine = new TurnEngine({ memory, tokens: cl100kTokenCounter });
    const model = new OllamaTurnModel(new OllamaChatModel({ host: standIn.url }), 'stand-in', 8192);
    const tools = new MemoryToolRunner(() => store, undefined, () => [], cl100kTokenCounter);
    const io = { model, tools, onText: () => undefined };
    // A first chat: the name is said once, early, and acknowledged; then a long stretch about other things.
    store.recordTurn({ sessionId: 'chat', role: 'user', text: 'Remember this: the staging bucket is named acme-stg-eu-42, in eu-west-1.' });
    store.recordTurn({ sessionId: 'chat', role: 'assistant', text: 'Noted.' });
    for (let i = 1; i <= 30; i++) {
      store.recordTurn({ sessionId: 'chat', role: 'user', text: longTurn(i) });
      store.recordTurn({ sessionId: 'chat', role: 'assistant', text: `Done with part ${i} of the staging checklist.` });
    }
    // The same question asked before, and an answer that quoted Engram's own tool: neither says what the name is.
    store.recordTurn({ sessionId: 'chat', role: 'user', text: question });
    store.recordTurn({ sessionId: 'chat', role: 'assistant', text: `Earlier conversation turns matching "${question}", best first:\n- the staging bucket name?` });
    // Now the question, with the model calling recall with the user's own words.
    standIn.enqueue({ toolCalls: [{ name: 'recall_conversation', arguments: { query: question } }] });
    standIn.enqueue({ content: 'You named it acme-stg-eu-42.' });
    const result = await engine.run({ sessionId: 'chat', text: question }, io);
    const block = result.report?.blocks.find((b) => b.id.startsWith('tool.recall_conversation'));
    assert.ok(block, `the recall result is a block of the report: ${result.report?.blocks.map((b) => b.id).join(', ')} ${result.error ?? ''}`);
    const lines = block.text?.split('\n').filter((line) => line.startsWith('- ')) ?? [];
    assert.match(lines[0] ?? '', /the staging bucket is named acme-stg-eu-42, in eu-west-1\./, block.text);
    assert.ok(!lines.some((line) => line.includes(question)), 'the question itself (now and earlier) is never a hit');
    assert.ok(!lines.some((line) => /Earlier conversation turns matching/.test(line)), 'nor an echo of it');
    // Whole turns, within a budget the report names (not a fixed 200 tokens).
    assert.equal(block.state, 'included');
    const budget = Number(/result budget (\d+) tokens/.exec(block.why)?.[1]);
    assert.ok(budget > 200 && block.tokens <= budget, block.why);
  });

  it('passes over skipped turns inside the ranking, so k hits still come back', () => {
    for (let i = 0; i < 12; i++) store.recordTurn({ sessionId: `old-${i}`, role: 'user', text: `the zephyr deploy key rotation, note ${i}` });
    const newest = store.recordTurn({ sessionId: 'now', role: 'user', text: 'the zephyr deploy key rotation again' });
    const outcome = runRecall({ store, retiredBeliefs: () => [] }, { query: 'zephyr deploy key rotation', k: 5 }, undefined, { inPrompt: new Set([newest.id]) });
    const lines = outcome.text.split('\n').filter((line) => line.startsWith('- '));
    assert.equal(lines.length, 5);
    assert.ok(!lines.some((line) => line.endsWith('rotation again')));
  });
});
