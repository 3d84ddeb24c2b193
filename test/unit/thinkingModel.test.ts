import assert from 'node:assert/strict';
import { cl100kTokenCounter } from '../../src/core/shared/tokenCounter';
import { OllamaChatModel } from '../../src/core/llm/ollamaChatModel';
import { defaultAllowlist } from '../../src/core/memory/allowlist';
import { proposeWithModel } from '../../src/core/capture/modelProposer';
import { EngramMemory } from '../../src/core/turn/engramMemory';
import { MemoryToolRunner } from '../../src/core/turn/memoryTools';
import { OllamaTurnModel } from '../../src/core/turn/ollamaTurnModel';
import { TurnEngine } from '../../src/core/turn/turnEngine';
import { MemoryStore } from '../../src/core/store/memoryStore';
import { type ChatRequestBody } from '../support/fakeOllama';
import { useStandIn } from '../support/standInHarness';

describe('a thinking model (message.thinking before content)', () => {
  const running = useStandIn({ models: [{ name: 'qwen3', thinking: true, emptyContentWithFormat: true, contextLength: 32768 }, { name: 'plain', contextLength: 32768 }] }, { store: true });
  const standIn = running.standIn;
  let store: MemoryStore;
  beforeEach(() => (store = running.store));

  it('streams its thinking as progress and its answer as the reply; only the answer is stored, nothing is learned from the thinking', async () => {
    const memory = new EngramMemory(store, cl100kTokenCounter);
    const engine = new TurnEngine({ memory, tokens: cl100kTokenCounter });
    const model = new OllamaTurnModel(new OllamaChatModel({ host: standIn.url }), 'qwen3', 8192);
    const events: string[] = [];
    standIn.enqueue({ thinking: 'The user works at Initech, I am told. They want the hang explained.', content: 'The test hangs because the server is never closed.' });
    const result = await engine.run(
      { sessionId: 's', text: 'why does this test hang?' },
      { model, tools: new MemoryToolRunner(() => store), onText: (text) => events.push(`text:${text}`), onThinking: (text) => events.push(`thinking:${text}`) },
    );
    assert.equal(result.reply, 'The test hangs because the server is never closed.');
    const thinking = events.filter((event) => event.startsWith('thinking:')).map((event) => event.slice(9)).join('');
    assert.equal(thinking, 'The user works at Initech, I am told. They want the hang explained.');
    const lastThought = events.map((event) => event.startsWith('thinking:')).lastIndexOf(true);
    assert.ok(events.findIndex((event) => event.startsWith('text:')) > lastThought, 'thinking comes first');
    const turn = (standIn.chatRequests.at(-1) as ChatRequestBody);
    assert.equal(turn.think, true, 'think is passed to a model that lists the capability');
    const stored = store.recentTurns('s', 2).map((t) => t.text).join('\n');
    assert.doesNotMatch(stored, /Initech/, 'thinking is never stored as the reply');
    assert.deepEqual(memory.facts.list().map((fact) => fact.value), [], 'nor captured');
  });

  it('gets no think option when the model does not list thinking', async () => {
    const memory = new EngramMemory(store, cl100kTokenCounter);
    const engine = new TurnEngine({ memory, tokens: cl100kTokenCounter });
    const model = new OllamaTurnModel(new OllamaChatModel({ host: standIn.url }), 'plain', 8192);
    await engine.run({ sessionId: 's', text: 'hello' }, { model, tools: new MemoryToolRunner(() => store), onText: () => undefined });
    assert.equal((standIn.chatRequests.at(-1) as ChatRequestBody).think, undefined);
  });

  it('rolls the summary with thinking off, and the proposer reads an answer left at the end of the thinking', async () => {
    const memory = new EngramMemory(store, cl100kTokenCounter);
    for (let i = 1; i <= 10; i++) store.recordTurn({ sessionId: 's', role: i % 2 ? 'user' : 'assistant', text: `turn ${i}` });
    const model = new OllamaTurnModel(new OllamaChatModel({ host: standIn.url }), 'qwen3', 8192);
    standIn.enqueue({ content: '## Goal\n- fix it\n## Decisions\n- none\n## Facts and context\n- x\n## Open questions\n- none' });
    await memory.summaries.roll('s', async (messages, signal) => {
      let text = '';
      for await (const chunk of model.send(messages, { tools: [], think: false, signal })) if (chunk.kind === 'text') text += chunk.text;
      return text;
    });
    assert.equal((standIn.chatRequests.at(-1) as ChatRequestBody).think, false);
    assert.equal(memory.summaries.status('s')?.state, 'rolled');
    standIn.enqueue({ content: JSON.stringify({ facts: [{ key: 'languages', value: 'Kotlin' }] }) });
    const proposals = await proposeWithModel(new OllamaChatModel({ host: standIn.url }), 'user', 'I mostly write Kotlin these days.', { model: 'qwen3', allowlist: defaultAllowlist });
    const sent = standIn.chatRequests.at(-1) as ChatRequestBody;
    assert.ok(sent.format, 'a structured request');
    assert.deepEqual(proposals.accepted, [{ key: 'languages', value: 'Kotlin', tier: 'C' }], 'content was empty: the JSON came at the end of the thinking');
  });
});
