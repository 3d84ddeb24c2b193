// The optional model proposer in a real VS Code: with the setting on, after the reply the turn's Ollama model proposes
// facts from the owner's words; what the checks allow waits for review, and nothing is confirmed on the model's word.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { EngramApi } from '../../src/host/extension';
import { FakeOllama } from '../support/fakeOllama';
import { chat, connectToStandIn, waitFor } from './engramApi';

describe('Engram model proposer (engram.capture.modelProposer)', () => {
  const ollama = new FakeOllama({ models: [{ name: 'stand-in:latest', family: 'llama', contextLength: 8192 }] });
  let api: EngramApi;
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('engram');

  before(async () => {
    api = await connectToStandIn(ollama);
    await config().update('capture.modelProposer', true, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  });
  after(async () => {
    await config().update('capture.modelProposer', undefined, vscode.ConfigurationTarget.Global);
    await ollama.stop();
  });

  it('queues a checked proposal from the owner’s words as tier C, and refuses one the owner never wrote', async () => {
    // The stand-in answers the proposer's structured-output request with JSON, and the chat with plain text.
    ollama.setDefaultReply((request) =>
      request.format
        ? { content: JSON.stringify({ facts: [{ key: 'languages', value: 'Kotlin' }, { key: 'location', value: 'Denver' }] }) }
        : { content: 'Coroutines are light threads.' },
    );
    await chat(api, '@engram I mostly hack on Kotlin these days, can you explain coroutines?');
    const proposed = await waitFor(() => api.facts?.list('proposed').find((s) => s.key === 'languages' && s.value === 'Kotlin'), 'the model’s proposal');
    assert.strictEqual(proposed.tier, 'C');
    assert.ok(ollama.chatRequests.some((request) => request.format !== undefined), 'asked with a JSON schema');
    assert.ok(!api.facts?.list('proposed').some((s) => s.value === 'Denver'), 'a value not in the owner’s words is refused');
    assert.ok(!api.facts?.list('confirmed').some((s) => s.value === 'Kotlin'), 'never confirmed on the model’s word');
    ollama.clearScript();
  });
});
