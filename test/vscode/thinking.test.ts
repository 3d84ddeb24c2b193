// A thinking model (qwen3, gpt-oss, deepseek-r1) in a real VS Code: its reasoning shows as one progress line while it
// thinks, its answer is the reply, and neither the chat, the store nor capture ever treats the thinking as the answer.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { EngramApi } from '../../src/host/extension';
import { FakeOllama } from '../support/fakeOllama';
import { chat, connectToStandIn, standInModel } from './engramApi';

describe('Engram with a thinking model', () => {
  const ollama = new FakeOllama({ models: [{ name: standInModel, family: 'qwen3', contextLength: 8192, thinking: true }] });
  let api: EngramApi;

  before(async () => {
    api = await connectToStandIn(ollama);
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  });
  after(() => ollama.stop());

  it('shows the thinking as progress and the answer as the reply; only the answer is remembered', async function () {
    this.timeout(60_000);
    ollama.enqueue({ thinking: 'The user said they work at Initech, so maybe the proxy blocks it.', content: 'The test hangs because the server is never closed.' });
    const outcome = await chat(api, '@engram why does this test hang?');
    assert.strictEqual(outcome.reply, 'The test hangs because the server is never closed.');
    assert.strictEqual(outcome.progress?.length, 1, `progress: ${JSON.stringify(outcome.progress)}`);
    assert.match(outcome.progress[0], /^Thinking \(.+\)…$/);
    assert.ok((outcome.thinkingChars ?? 0) > 30, `${outcome.thinkingChars} characters of thinking`);
    assert.doesNotMatch(outcome.reply, /Initech/);
    assert.ok(!outcome.learned.some((fact) => /Initech/.test(fact.value)), 'nothing is captured from the thinking');
  });
});
