import * as assert from 'assert/strict';
import { Ollama } from 'ollama';
import { FakeOllama } from '../support/fakeOllama';

const MODEL = 'stand-in:latest';

/** True when an error, its `cause` chain or an AggregateError inside mentions `code` (undici nests it). */
function errorMentions(error: unknown, code: string): boolean {
  if (!error || typeof error !== 'object') return false;
  const candidate = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown[] };
  if (candidate.code === code || String(candidate.message ?? '').includes(code)) return true;
  return errorMentions(candidate.cause, code) || (candidate.errors ?? []).some((inner) => errorMentions(inner, code));
}

function cosine(a: number[], b: number[]): number {
  return a.reduce((sum, value, i) => sum + value * b[i], 0);
}

describe('FakeOllama (driven by the real ollama client)', () => {
  let standIn: FakeOllama;
  let client: Ollama;

  beforeEach(async () => {
    standIn = new FakeOllama({
      models: [
        { name: 'stand-in:latest', family: 'llama', contextLength: 8192, tools: true },
        { name: 'tiny', family: 'qwen2', contextLength: 2048, tools: false },
      ],
      embeddingDims: 32,
    });
    client = new Ollama({ host: await standIn.start() });
  });

  afterEach(async () => {
    await standIn.stop();
  });

  it('answers the root and version probes like Ollama', async () => {
    const root = await fetch(standIn.url);
    assert.equal(await root.text(), 'Ollama is running');
    assert.deepEqual(await client.version(), { version: '0.12.0-stand-in' });
  });

  it('lists the configured models with their details, tagging untagged names :latest', async () => {
    const { models } = await client.list();
    assert.deepEqual(models.map((model) => model.name), ['stand-in:latest', 'tiny:latest']);
    assert.equal(models[1].details.family, 'qwen2');
    assert.deepEqual(models[1].details.families, ['qwen2']);
    assert.equal(models[0].details.quantization_level, 'Q4_K_M');
  });

  it('shows the context length and capabilities of a model', async () => {
    const shown = await client.show({ model: 'tiny' });
    const modelInfo = shown.model_info as unknown as Record<string, unknown>;
    assert.equal(modelInfo['general.architecture'], 'qwen2');
    assert.equal(modelInfo['qwen2.context_length'], 2048);
    assert.deepEqual(shown.capabilities, ['completion']);
    assert.deepEqual((await client.show({ model: MODEL })).capabilities, ['completion', 'tools']);
  });

  it('rejects show for an unknown model with 404', async () => {
    await assert.rejects(client.show({ model: 'nope' }), { status_code: 404, message: "model 'nope' not found" });
  });

  it('streams scripted chunks in order and ends with a done message carrying counts', async () => {
    standIn.enqueue({ chunks: ['Hel', 'lo ', 'there'] });
    const stream = await client.chat({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], stream: true });
    const parts = [];
    for await (const part of stream) parts.push(part);
    assert.deepEqual(parts.slice(0, -1).map((part) => part.message.content), ['Hel', 'lo ', 'there']);
    const final = parts[parts.length - 1];
    assert.equal(final.done, true);
    assert.equal(final.done_reason, 'stop');
    assert.ok(final.prompt_eval_count > 0, 'prompt_eval_count should estimate the input');
    assert.deepEqual(standIn.chatRequests[0].messages, [{ role: 'user', content: 'hi' }]);
  });

  it('echoes the last user message by default, and consumes the queue first in, first out', async () => {
    standIn.enqueue({ content: 'first' });
    standIn.enqueue({ content: 'second' });
    const ask = async (content: string) =>
      (await client.chat({ model: MODEL, messages: [{ role: 'user', content }], stream: false })).message.content;
    assert.equal(await ask('a'), 'first');
    assert.equal(await ask('b'), 'second');
    assert.equal(await ask('what is 2+2?'), 'Stand-in reply to: what is 2+2?');
    standIn.setDefaultReply((request) => ({ content: `${request.messages?.length} message(s)` }));
    assert.equal(await ask('c'), '1 message(s)');
  });

  it('delivers tool calls as message.tool_calls', async () => {
    standIn.enqueue({ content: 'Let me look.', toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' } }] });
    const stream = await client.chat({ model: MODEL, messages: [{ role: 'user', content: 'read a.ts' }], stream: true });
    const toolCalls = [];
    let text = '';
    for await (const part of stream) {
      text += part.message.content;
      toolCalls.push(...(part.message.tool_calls ?? []));
    }
    assert.equal(text, 'Let me look.');
    assert.deepEqual(toolCalls, [{ function: { name: 'read_file', arguments: { path: 'src/a.ts' } } }]);
  });

  it('rejects chat with an unknown model using the real not-found message', async () => {
    await assert.rejects(client.chat({ model: 'ghost', messages: [{ role: 'user', content: 'hi' }] }), {
      status_code: 404,
      message: 'model "ghost" not found, try pulling it first',
    });
  });

  it('answers a scripted error with its status and message', async () => {
    standIn.enqueue({ error: { status: 500, message: 'model runner has unexpectedly stopped' } });
    await assert.rejects(client.chat({ model: MODEL, messages: [{ role: 'user', content: 'hi' }] }), {
      status_code: 500,
      message: 'model runner has unexpectedly stopped',
    });
  });

  it('answers bad JSON with 400 and unknown paths with 404', async () => {
    const badJson = await fetch(`${standIn.url}/api/chat`, { method: 'POST', body: '{not json' });
    assert.equal(badJson.status, 400);
    assert.match(((await badJson.json()) as { error: string }).error, /invalid JSON/);
    const unknown = await fetch(`${standIn.url}/api/nothing-here`);
    assert.equal(unknown.status, 404);
    assert.deepEqual(await unknown.json(), { error: 'not found' });
  });

  it('embeds deterministically into unit vectors where shared words mean similarity', async () => {
    const input = ['parse the config file', 'parse the config file', 'load config settings', 'zebra'];
    const { embeddings } = await client.embed({ model: MODEL, input });
    assert.equal(embeddings.length, 4);
    assert.equal(embeddings[0].length, 32);
    for (const vector of embeddings) assert.ok(Math.abs(Math.hypot(...vector) - 1) < 1e-9, 'vectors are L2-normalised');
    assert.deepEqual(embeddings[0], embeddings[1]);
    assert.ok(cosine(embeddings[0], embeddings[2]) > 0, 'texts sharing "config" are similar');
    assert.ok(cosine(embeddings[0], embeddings[2]) < 1, 'different texts are not identical');
    const legacy = await client.embeddings({ model: MODEL, prompt: 'parse the config file' });
    assert.deepEqual(legacy.embedding, embeddings[0]);
  });

  it('sees a client abort mid-stream and stops writing', async () => {
    const chunks = Array.from({ length: 20 }, (_, i) => `chunk${i} `);
    standIn.enqueue({ chunks, delayMsPerChunk: 25 });
    const stream = await client.chat({ model: MODEL, messages: [{ role: 'user', content: 'long answer' }], stream: true });
    const received: string[] = [];
    for await (const part of stream) {
      received.push(part.message.content);
      if (received.length === 2) {
        stream.abort();
        break;
      }
    }
    await standIn.waitForAbortedChats(1);
    assert.equal(standIn.abortedChats, 1);
    const chatRecord = standIn.requests.find((request) => request.path === '/api/chat');
    assert.equal(chatRecord?.aborted, true);
    const chunksAtAbort = chatRecord?.streamedChunks ?? 0;
    await new Promise((resolve) => setTimeout(resolve, 100)); // room for four more chunks, if it kept going
    assert.equal(chatRecord?.streamedChunks, chunksAtAbort, 'no chunk is written after the client left');
    assert.ok(chunksAtAbort < chunks.length);
  });

  it('stop() cuts open connections at once, then refuses connections, and can start again', async () => {
    // A slow reply keeps a connection busy; server.close() alone would wait for it to finish.
    standIn.enqueue({ chunks: Array.from({ length: 50 }, () => 'slow '), delayMsPerChunk: 200 });
    const stream = await client.chat({ model: MODEL, messages: [{ role: 'user', content: 'hi' }], stream: true });
    const iterator = stream[Symbol.asyncIterator]();
    assert.equal((await iterator.next()).value?.message.content, 'slow ');
    const port = Number(new URL(standIn.url).port);
    const stopStartedAt = Date.now();
    await standIn.stop();
    assert.ok(Date.now() - stopStartedAt < 1000, 'stop() must not wait for the 10 s reply to finish');
    await assert.rejects(async () => {
      while (!(await iterator.next()).done) {
        // drain until the cut connection surfaces as an error
      }
    });
    await assert.rejects(client.list(), (error: unknown) => errorMentions(error, 'ECONNREFUSED'));
    assert.throws(() => standIn.url, /not running/);
    assert.equal(await standIn.start(port), `http://127.0.0.1:${port}`);
    assert.equal((await client.list()).models.length, 2);
  });

  it('reset() clears the request logs and the script', async () => {
    standIn.enqueue({ content: 'scripted' });
    await client.list();
    standIn.reset();
    assert.deepEqual(standIn.requests, []);
    const reply = await client.chat({ model: MODEL, messages: [{ role: 'user', content: 'x' }] });
    assert.equal(reply.message.content, 'Stand-in reply to: x');
    assert.equal(standIn.chatRequests.length, 1);
  });
});
