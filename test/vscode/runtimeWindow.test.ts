// The prompt a real Ollama sees is the prompt Engram reports, in a real VS Code: a conversation longer than
// Ollama's default runtime window (4k, which the stand-in keeps as Ollama does) is answered with nothing cut,
// because every request carries num_ctx and the memory goes as a system message.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { EngramApi } from '../../src/host/extension';
import { FakeOllama, truncateLikeOllama, type ChatRequestBody } from '../support/fakeOllama';
import { chat, connectToStandIn } from './engramApi';

/** About 200 tokens of varied words: some 25 of them outgrow a 4k window. */
function longMessage(i: number): string {
  return `Turn ${i}: ` + Array.from({ length: 40 }, (_, j) => `item${(i * 37 + j) % 101} step${j} in the build`).join(' ');
}

describe('Engram runtime window', () => {
  const ollama = new FakeOllama({ models: [{ name: 'stand-in:latest', family: 'llama', contextLength: 32768 }], defaultRuntimeContext: 4096 });
  let api: EngramApi;

  before(async () => {
    api = await connectToStandIn(ollama);
    await vscode.workspace.getConfiguration('engram').update('ollama.contextLength', 8192, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await vscode.workspace.getConfiguration('engram').update('ollama.contextLength', undefined, vscode.ConfigurationTarget.Global);
    await ollama.stop();
  });

  it('answers a conversation past the default window with nothing cut; the report window is the num_ctx sent', async function () {
    this.timeout(180_000);
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    let outcome;
    for (let i = 1; i <= 26; i++) outcome = await chat(api, `@engram ${longMessage(i)}`);
    const report = outcome?.report;
    assert.ok(report, 'the last turn has a report');
    const turns = ollama.requests.filter((request) => request.path === '/api/chat' && /^You are Engram/.test((request.body as ChatRequestBody).messages?.[0]?.content ?? ''));
    assert.ok(turns.length >= 26, `${turns.length} turn requests`);
    const last = turns.at(-1)!;
    const body = last.body as ChatRequestBody;
    assert.strictEqual(body.messages?.[0].role, 'system');
    assert.strictEqual(body.options?.num_ctx, 8192);
    assert.strictEqual(report.window, 8192);
    assert.strictEqual(report.systemDelivery, 'system message');
    for (const turn of turns) assert.deepStrictEqual(turn.truncation?.dropped, [], ollama.log.join('\n'));
    assert.ok(truncateLikeOllama(body, 4096).dropped.length > 0, 'without num_ctx the stand-in would have cut this prompt');
    assert.match(report.blocks.find((block) => block.id === 'profile')?.why ?? report.blocks.find((block) => block.id === 'identity')?.why ?? '', /./);
  });
});
