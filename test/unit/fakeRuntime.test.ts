import assert from 'node:assert/strict';
import { Ollama } from 'ollama';
import { cl100kTokenCounter } from '../../src/core/shared/tokenCounter';
import { FakeOllama } from '../support/fakeOllama';
import { messageTokens, modelTokens, toolTokens, truncateLikeOllama } from '../support/fakeRuntime';

const words = (count: number, tag: string): string => Array.from({ length: count }, (_, i) => `${tag}${i}`).join(' ');

describe('the stand-in counts and cuts like a model runtime', () => {
  it('counts heavier than cl100k, with template tokens per message and the tool schemas rendered in', () => {
    const text = words(300, 'word');
    assert.equal(modelTokens(text), Math.ceil(cl100kTokenCounter.count(text) * 1.15));
    assert.equal(messageTokens({ role: 'user', content: text }), modelTokens(text) + 6);
    const tools = [{ type: 'function', function: { name: 'recall_conversation', description: 'search', parameters: {} } }];
    assert.equal(toolTokens(tools), modelTokens(JSON.stringify(tools)) + 12);
    const cut = truncateLikeOllama({ messages: [{ role: 'user', content: 'hi' }], tools }, 8192);
    assert.equal(cut.sentTokens, toolTokens(tools) + messageTokens({ role: 'user', content: 'hi' }));
  });

  it('drops the oldest non-system messages first, then cuts the front of what still does not fit after the first few tokens', () => {
    const messages = [
      { role: 'system', content: `SYSTEM-START ${words(900, 'sys')} SYSTEM-END` },
      { role: 'user', content: words(200, 'old') },
      { role: 'assistant', content: words(200, 'reply') },
      { role: 'user', content: `latest question ${words(100, 'now')}` },
    ];
    const cut = truncateLikeOllama({ messages }, 1024);
    assert.deepEqual(cut.dropped, [1, 2]);
    assert.ok(cut.cutTokens > 0, 'the system message plus the latest are still over the window');
    assert.ok(cut.keptTokens <= 1024, `${cut.keptTokens} kept`);
    assert.match(messages[0].content, /^SYSTEM-STA/, 'the first tokens stay');
    assert.doesNotMatch(messages[0].content, /sys5 /, 'what followed them went');
    assert.match(messages[0].content, /SYSTEM-END$/);
    assert.match(messages[3].content, /^latest question/);
  });

  it('reports prompt_eval_count from its own count, at most the window', async () => {
    const standIn = new FakeOllama({ models: [{ name: 'm', contextLength: 2048 }] });
    const client = new Ollama({ host: await standIn.start() });
    try {
      const content = words(3000, 'w');
      const reply = await client.chat({ model: 'm', messages: [{ role: 'system', content }, { role: 'user', content: 'hi' }], options: { num_ctx: 2048 } });
      assert.equal(reply.prompt_eval_count, 2048, 'the runner cut the prompt to its window');
      assert.match(standIn.log.at(-1) ?? '', /truncating input prompt limit=2048: cut \d+ tokens after the first 4/);
      const small = await client.chat({ model: 'm', messages: [{ role: 'user', content: 'hello there' }], options: { num_ctx: 2048 } });
      assert.equal(small.prompt_eval_count, messageTokens({ role: 'user', content: 'hello there' }));
    } finally {
      await standIn.stop();
    }
  });

  it('streams a thinking model\'s thinking before its content, and none when think is false', async () => {
    const standIn = new FakeOllama({ models: [{ name: 'qwen3', thinking: true }] });
    const client = new Ollama({ host: await standIn.start() });
    try {
      assert.ok((await client.show({ model: 'qwen3' })).capabilities.includes('thinking'));
      standIn.enqueue({ thinking: 'Hmm, let me see.', content: 'Answer.' });
      const parts: { thinking?: string; content: string }[] = [];
      for await (const part of await client.chat({ model: 'qwen3', messages: [{ role: 'user', content: 'q' }], stream: true, think: true })) parts.push(part.message);
      const firstContent = parts.findIndex((part) => part.content);
      assert.equal(parts.slice(0, firstContent).map((part) => part.thinking ?? '').join(''), 'Hmm, let me see.');
      assert.equal(parts.map((part) => part.content).join(''), 'Answer.');
      standIn.enqueue({ thinking: 'Hmm.', content: 'Plain.' });
      const off = await client.chat({ model: 'qwen3', messages: [{ role: 'user', content: 'q' }], think: false });
      assert.equal(off.message.thinking, undefined);
      assert.equal(off.message.content, 'Plain.');
    } finally {
      await standIn.stop();
    }
  });
});
