// The extension in a real VS Code: activation, the Ollama models, and @engram answering through the chat.
import * as assert from 'node:assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { registerDomainOperations } from '../../src/core/domains';
import { MemoryStore } from '../../src/core/store/memoryStore';
import type { EngramApi } from '../../src/host/extension';
import { FakeOllama } from '../support/fakeOllama';
import { activeEngram, chat, extensionId, waitFor } from './engramApi';

// These tests read the store as a second process would, so they know every domain's operations as it would.
registerDomainOperations();

const standInModel = 'stand-in:latest';

/** Reads the store as it is on disk, as a second process would: what survives a restart, not what is in memory. */
async function turnsOnDisk(storeFolder: string, sessionId: string): Promise<{ role: string; text: string }[]> {
  const reader = await MemoryStore.open({
    folder: storeFolder,
    wasmPath: require.resolve('sql.js/dist/sql-wasm.wasm'),
    tokens: { count: () => 0 },
    readOnly: true,
  });
  try {
    return reader.turns(sessionId).map((turn) => ({ role: turn.role, text: turn.text }));
  } finally {
    await reader.close();
  }
}

describe('Engram in VS Code', () => {
  const ollama = new FakeOllama({ models: [{ name: standInModel, family: 'llama', contextLength: 8192, tools: true }] });
  let api: EngramApi;

  before(async () => {
    const url = await ollama.start();
    await vscode.workspace.getConfiguration('engram').update('ollama.host', url, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('engram').update('model', standInModel, vscode.ConfigurationTarget.Global);
    api = await activeEngram();
  });

  after(async () => {
    await ollama.stop();
  });

  it('activates and keeps its store in globalStorage', async () => {
    const extension = vscode.extensions.getExtension(extensionId);
    assert.ok(extension?.isActive, 'the extension is active');
    assert.match(api.storeFolder.replace(/\\/g, '/'), /globalStorage\/engram-dev\.engram$/);
  });

  it('offers the Ollama server models to the chat', async () => {
    await vscode.commands.executeCommand('engram.refreshModels');
    const models = await waitFor(async () => {
      const found = await vscode.lm.selectChatModels({ vendor: 'engram-ollama' });
      return found.some((model) => model.id === standInModel) ? found : undefined;
    }, 'the stand-in model to be listed');
    const model = models.find((candidate) => candidate.id === standInModel);
    assert.ok(model);
    assert.strictEqual(model.maxInputTokens, 8192 - 2048, 'the window from /api/show, less room for the reply');
    assert.ok(ollama.requests.some((request) => request.path === '/api/tags'), 'the provider asked the server for its models');
  });

  it('answers /help with the model and the store it uses', async () => {
    const outcome = await chat(api, '@engram /help');
    assert.match(outcome.reply, /Model:/);
    assert.ok(outcome.reply.includes(api.storeFolder), 'the help names the store folder');
  });

  it('streams the model reply to "@engram hello" and records both turns on disk', async () => {
    ollama.enqueue({ chunks: ['Hello from ', 'the stand-in', '.'] });
    const outcome = await chat(api, '@engram hello');
    assert.strictEqual(outcome.error, undefined, outcome.error);
    assert.strictEqual(outcome.reply, 'Hello from the stand-in.');
    const sent = ollama.chatRequests.at(-1);
    assert.ok(sent, 'the request reached the model server');
    assert.strictEqual(sent.messages?.at(-1)?.content, 'hello');

    await api.flush();
    assert.ok(existsSync(join(api.storeFolder, 'journals')), 'the journal is in globalStorage');
    const turns = await turnsOnDisk(api.storeFolder, outcome.sessionId);
    assert.deepStrictEqual(turns.slice(-2), [
      { role: 'user', text: 'hello' },
      { role: 'assistant', text: 'Hello from the stand-in.' },
    ]);
  });

  it('says plainly that Ollama is not running, with the URL and the fix', async () => {
    const url = ollama.url;
    await ollama.stop();
    try {
      const outcome = await chat(api, '@engram are you there?');
      assert.ok(outcome.error, 'the turn ends in an error the chat shows');
      assert.ok(outcome.error.includes(`isn't running at ${url}`), outcome.error);
      assert.match(outcome.error, /ollama serve/);
    } finally {
      await ollama.start(Number(new URL(url).port));
    }
  });
});
