import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import type { ChatChunk } from '../../src/core/llm/chatModel';
import { ModelError } from '../../src/core/llm/modelErrors';
import { OllamaChatModel } from '../../src/core/llm/ollamaChatModel';
import { FakeOllama } from '../support/fakeOllama';

async function collect(stream: AsyncIterable<ChatChunk>): Promise<ChatChunk[]> {
  const chunks: ChatChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

async function failureOf(work: () => Promise<unknown>): Promise<ModelError> {
  try {
    await work();
  } catch (error) {
    assert.ok(error instanceof ModelError, `expected a ModelError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

describe('OllamaChatModel against the stand-in server', () => {
  const server = new FakeOllama({
    models: [{ name: 'qwen2.5-coder:7b', family: 'qwen2', contextLength: 32768, tools: true }],
  });
  let model: OllamaChatModel;
  before(async () => {
    model = new OllamaChatModel({ host: await server.start() });
  });
  afterEach(() => server.reset());
  after(() => server.stop());

  it('lists models and reads the context window and tool support', async () => {
    assert.deepEqual((await model.listModels()).map((m) => m.name), ['qwen2.5-coder:7b']);
    const details = await model.describeModel('qwen2.5-coder:7b');
    assert.equal(details.contextLength, 32768);
    assert.equal(details.supportsTools, true);
  });

  it('streams text in order and reports tool calls with ids of their own', async () => {
    server.enqueue({ chunks: ['Hel', 'lo'], toolCalls: [{ name: 'memory_search', arguments: { query: 'employer' } }] });
    const chunks = await collect(model.chat('qwen2.5-coder:7b', [{ role: 'user', content: 'hi' }]));
    const text = chunks.flatMap((c) => (c.kind === 'text' ? [c.text] : [])).join('');
    assert.equal(text, 'Hello');
    const call = chunks.find((c) => c.kind === 'toolCall');
    assert.ok(call && call.kind === 'toolCall');
    assert.equal(call.call.name, 'memory_search');
    assert.deepEqual(call.call.arguments, { query: 'employer' });
    assert.match(call.call.id, /^call_/);
    assert.equal(chunks.at(-1)?.kind, 'done');
  });

  it('sends tool results back as tool messages', async () => {
    await collect(
      model.chat('qwen2.5-coder:7b', [
        { role: 'user', content: 'where do I work?' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'memory_search', arguments: { query: 'employer' } }] },
        { role: 'tool', toolName: 'memory_search', content: 'employer = Calico' },
      ]),
    );
    const sent = server.chatRequests.at(-1)?.messages ?? [];
    assert.deepEqual(sent.map((m) => m.role), ['user', 'assistant', 'tool']);
    assert.equal(sent[2].content, 'employer = Calico');
  });

  it('says which model to pull when it is missing', async () => {
    const error = await failureOf(() => collect(model.chat('llama3.2:3b', [{ role: 'user', content: 'hi' }])));
    assert.equal(error.kind, 'modelMissing');
    assert.match(error.message, /ollama pull llama3\.2:3b/);
  });

  it('stops the stream at the server when cancelled', async () => {
    server.enqueue({ chunks: Array.from({ length: 50 }, (_, i) => `word${i} `), delayMsPerChunk: 40 });
    const abort = new AbortController();
    const received: string[] = [];
    const error = await failureOf(async () => {
      for await (const chunk of model.chat('qwen2.5-coder:7b', [{ role: 'user', content: 'go' }], { signal: abort.signal })) {
        if (chunk.kind === 'text') received.push(chunk.text);
        if (received.length === 3) abort.abort();
      }
    });
    assert.equal(error.kind, 'cancelled');
    assert.ok(received.length < 50);
    await server.waitForAbortedChats(1);
  });

  it('names the URL and the fix when nothing listens there', async () => {
    const closed = new OllamaChatModel({ host: 'http://127.0.0.1:1' });
    const error = await failureOf(() => closed.listModels());
    assert.equal(error.kind, 'notRunning');
    assert.match(error.message, /isn't running at http:\/\/127\.0\.0\.1:1/);
    assert.match(error.message, /ollama serve/);
    assert.match(error.message, /engram\.ollama\.host/);
  });

  it('gives up with a time-out message when the server never answers', async () => {
    // A socket that accepts and then says nothing, like a server stuck loading a model.
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as { port: number }).port;
    try {
      const slow = new OllamaChatModel({ host: `http://127.0.0.1:${port}`, responseTimeoutSeconds: 0.3 });
      const error = await failureOf(() => collect(slow.chat('any', [{ role: 'user', content: 'hi' }])));
      assert.equal(error.kind, 'timeout');
      assert.match(error.message, /did not answer within 0\.3 seconds/);
    } finally {
      silent.close();
    }
  });
});
