import assert from 'node:assert/strict';
import { cl100kTokenCounter } from '../../src/core/shared/tokenCounter';
import { OllamaChatModel } from '../../src/core/llm/ollamaChatModel';
import { EngramMemory } from '../../src/core/turn/engramMemory';
import { MemoryToolRunner } from '../../src/core/turn/memoryTools';
import { OllamaTurnModel } from '../../src/core/turn/ollamaTurnModel';
import { TurnEngine } from '../../src/core/turn/turnEngine';
import { FakeOllama, truncateLikeOllama, type ChatRequestBody } from '../support/fakeOllama';
import { engineFor as standInEngine, useStandIn } from '../support/standInHarness';
import type { MemoryStore } from '../../src/core/store/memoryStore';

/** About 150 tokens of varied prose: long conversations of these outgrow a 4k window in some 25 turns. */
function longMessage(i: number): string {
  return `Turn ${i}: ` + Array.from({ length: 30 }, (_, j) => `word${(i * 31 + j) % 97} detail${j} about the migration`).join(' ');
}

describe('the turn engine against an Ollama-protocol stand-in', () => {
  const running = useStandIn({ models: [{ name: 'stand-in', contextLength: 131072 }], defaultRuntimeContext: 4096 }, { store: true });
  const standIn = running.standIn;
  let store: MemoryStore;
  beforeEach(() => (store = running.store));
  const engineFor = (contextLength: number): ReturnType<typeof standInEngine> => standInEngine(running, 'stand-in', contextLength);

  it('answers a conversation longer than Ollama’s default window with nothing cut: system first, num_ctx = the window reported', async () => {
    const { engine, model } = engineFor(8192);
    const tools = new MemoryToolRunner(() => store);
    let last;
    for (let i = 1; i <= 40; i++) last = await engine.run({ sessionId: 's', text: longMessage(i) }, { model, tools, onText: () => undefined });
    assert.ok(last?.report);
    // The turns' own requests (summary rolls, off the reply path, are chats too).
    const chats = standIn.requests.filter((request) => request.path === '/api/chat' && /^You are Engram/.test((request.body as ChatRequestBody).messages?.[0]?.content ?? ''));
    assert.equal(chats.length, 40);
    const final = chats.at(-1)!;
    const body = final.body as ChatRequestBody;
    assert.equal(body.messages?.[0].role, 'system', 'the memory block goes as a system message');
    assert.equal(body.options?.num_ctx, 8192);
    assert.equal(last.report.window, 8192, 'the report budgets against the window that was sent');
    assert.equal(last.report.systemDelivery, 'system message');
    for (const chat of chats) assert.deepEqual(chat.truncation?.dropped, [], standIn.log.join('\n'));
    // Engram left older turns out itself, and said so, rather than letting Ollama cut them silently.
    assert.equal(last.report.blocks.find((block) => block.id === 'conversation')?.state, 'truncated');
    // The control: the same prompt without num_ctx would have lost its oldest messages in a default 4k window.
    assert.ok(truncateLikeOllama(body, 4096).dropped.length > 0, 'the conversation must outgrow the default window for this test to mean anything');
    assert.ok(/window 8192, .* nothing cut/.test(standIn.log.at(-1) ?? ''), standIn.log.at(-1));
  });

  it('budgets to what Ollama really allocated when it gives less than was asked (and says so)', async () => {
    const small = new FakeOllama({ models: [{ name: 'stand-in', contextLength: 131072 }], maxRuntimeContext: 3000 });
    await small.start();
    try {
      const memory = new EngramMemory(store, cl100kTokenCounter);
      const engine = new TurnEngine({ memory, tokens: cl100kTokenCounter });
      const model = new OllamaTurnModel(new OllamaChatModel({ host: small.url }), 'stand-in', 8192);
      let last;
      for (let i = 1; i <= 25; i++) last = await engine.run({ sessionId: 's', text: longMessage(i) }, { model, tools: new MemoryToolRunner(() => store), onText: () => undefined });
      assert.equal(last?.report?.window, 3000);
      assert.match(last?.report?.windowWhy ?? '', /allocated 3,000 of the 8,192/);
      for (const request of small.requests.filter((r) => r.truncation)) assert.deepEqual(request.truncation?.dropped, [], small.log.join('\n'));
    } finally {
      await small.stop();
    }
  });

  it('counts the report over exactly what was sent, tool results and tool definitions included', async () => {
    const { engine, model } = engineFor(8192);
    store.recordTurn({ sessionId: 'earlier', role: 'user', text: 'the flaky test was fixed by pinning the clock' });
    standIn.enqueue({ toolCalls: [{ name: 'recall_conversation', arguments: { query: 'flaky test clock' } }] });
    standIn.enqueue({ content: 'You pinned the clock.' });
    const result = await engine.run({ sessionId: 's', text: 'how did we fix the flaky test?' }, { model, tools: new MemoryToolRunner(() => store), onText: () => undefined });
    assert.equal(result.reply, 'You pinned the clock.');
    const blocks = result.report?.blocks ?? [];
    const tool = blocks.find((block) => block.id.startsWith('tool.recall_conversation'));
    assert.ok(tool && tool.tokens > 0 && /pinning the clock/.test(tool.text));
    assert.ok((blocks.find((block) => block.id === 'tools')?.tokens ?? 0) > 100, 'tool definitions are counted');
    const sum = blocks.reduce((total, block) => total + block.tokens, 0);
    assert.ok(result.report && result.report.totalTokens >= sum, `${result.report?.totalTokens} >= ${sum}`);
    // The retrieval record belongs to this turn's report.
    assert.ok(result.report?.retrieval.some((entry) => entry.via === 'tool:recall_conversation'));
    const second = standIn.chatRequests.at(-1);
    assert.equal(second?.messages?.at(-1)?.role, 'tool');
  });

  it('answers undo and yes/no without the model, and records no empty turn', async () => {
    const { engine, model } = engineFor(8192);
    const io = { model, tools: new MemoryToolRunner(() => store), onText: () => undefined };
    const learned = await engine.run({ sessionId: 's', text: 'I work at Calico.' }, io);
    assert.deepEqual(learned.learned.map((s) => `${s.key}=${s.value}`), ['employer=Calico']);
    const before = standIn.chatRequests.length;
    const empty = await engine.run({ sessionId: 's', text: '   ' }, io);
    assert.equal(empty.direct, true);
    const undo = await engine.run({ sessionId: 's', text: 'undo last learned' }, io);
    assert.match(undo.reply, /no longer believe employer = Calico/);
    assert.equal(standIn.chatRequests.length, before, 'no model call for direct answers');
    const roles = store.turns('s').map((turn) => turn.role);
    for (let i = 1; i < roles.length; i++) assert.notEqual(`${roles[i - 1]}${roles[i]}`, 'assistantassistant');
  });

  it('says what is wrong when Ollama is down, and keeps the user turn', async () => {
    const memory = new EngramMemory(store, cl100kTokenCounter);
    const engine = new TurnEngine({ memory, tokens: cl100kTokenCounter });
    const model = new OllamaTurnModel(new OllamaChatModel({ host: 'http://127.0.0.1:9' }), 'stand-in', 8192);
    const result = await engine.run({ sessionId: 's', text: 'hello there' }, { model, tools: new MemoryToolRunner(() => store), onText: () => undefined });
    assert.match(result.error ?? '', /Ollama isn't running at http:\/\/127\.0\.0\.1:9/);
    assert.deepEqual(store.turns('s').map((turn) => turn.text), ['hello there']);
  });

  it('chats without memory when the store is unavailable', async () => {
    const engine = new TurnEngine({ memory: { state: 'unavailable', reason: 'disk gone' }, tokens: cl100kTokenCounter });
    const model = new OllamaTurnModel(new OllamaChatModel({ host: standIn.url }), 'stand-in', 8192);
    const result = await engine.run({ sessionId: 's', text: 'hello' }, { model, tools: new MemoryToolRunner(() => undefined), onText: () => undefined });
    assert.match(result.reply, /Stand-in reply to: hello/);
    assert.equal(standIn.chatRequests.at(-1)?.tools, undefined, 'no memory tools offered without memory');
  });
});


