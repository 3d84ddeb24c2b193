// Context is what the prompt actually carries, in a real VS Code: layered blocks with token counts, an L1 line
// for older conversations, and recall_conversation called by the model with its result reaching the model.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { EngramApi } from '../../src/host/extension';
import { FakeOllama } from '../support/fakeOllama';
import { chat, connectToStandIn } from './engramApi';

describe('Engram context', () => {
  const ollama = new FakeOllama({ models: [{ name: 'stand-in:latest', family: 'llama', contextLength: 8192 }] });
  let api: EngramApi;

  before(async () => {
    api = await connectToStandIn(ollama);
  });
  after(() => ollama.stop());

  it('registers memory_search and recall_conversation as language-model tools', () => {
    const names = vscode.lm.tools.map((tool) => tool.name);
    assert.ok(names.includes('memory_search') && names.includes('recall_conversation'), names.join(', '));
  });

  it('reports the L0 blocks with token counts and an L1 line for older conversations', async () => {
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await chat(api, '@engram the quokkadb migration failed because the index already existed');
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    const outcome = await chat(api, '@engram good morning');
    const report = outcome.report;
    assert.ok(report, 'the turn has a context report');
    const byId = new Map(report.blocks.map((block) => [block.id, block]));
    for (const id of ['identity', 'profile', 'behaviours', 'summary', 'conversation', 'prompt']) {
      assert.ok(byId.has(id), `block ${id} is reported`);
      assert.strictEqual(byId.get(id)?.layer, 'L0');
    }
    assert.ok((byId.get('identity')?.tokens ?? 0) > 10, 'blocks carry token counts');
    const older = byId.get('l1.sessions');
    assert.strictEqual(older?.layer, 'L1');
    assert.strictEqual(older?.state, 'included');
    assert.match(older?.text ?? '', /earlier conversations .* recall_conversation/);
    assert.ok(report.totalTokens > 0 && report.totalTokens <= report.budget, `${report.totalTokens} of ${report.budget}`);
    const sent = JSON.stringify(ollama.chatRequests.at(-1)?.messages ?? []);
    assert.ok(sent.includes('recall_conversation to search them'), 'the L1 line is in the prompt the model got');
  });

  it('runs recall_conversation when the model asks, and the result reaches the model', async () => {
    ollama.enqueue({ toolCalls: [{ name: 'recall_conversation', arguments: { query: 'quokkadb index migration' } }] });
    ollama.enqueue({ content: 'Last time the index already existed.' });
    const outcome = await chat(api, '@engram what went wrong with that schema upgrade?');
    assert.strictEqual(outcome.reply, 'Last time the index already existed.');
    const followUp = ollama.chatRequests.at(-1)?.messages ?? [];
    const toolMessage = followUp.find((message) => message.role === 'tool');
    assert.ok(toolMessage, 'the tool result was sent back to the model');
    assert.match(String(toolMessage.content), /quokkadb migration failed because the index already existed/);
    const l2 = outcome.report?.blocks.find((block) => block.layer === 'L2');
    assert.ok(l2 && l2.tokens > 0, 'the tool result is an L2 block with its tokens');
    assert.ok(outcome.report?.retrieval.some((entry) => entry.via === 'tool:recall_conversation' && entry.kind === 'turn'));
  });

  it('compacts the conversation into a sectioned summary that the next prompt carries', async () => {
    ollama.enqueue({ content: '## Goal\nUnderstand the quokkadb migration failure.\n## Decisions\nDrop the duplicate index first.\n## Facts and context\n-\n## Open questions\n-' });
    const message = await vscode.commands.executeCommand<string>('engram.compactNow');
    assert.match(message ?? '', /^Compacted: \d+ older turns/);
    const outcome = await chat(api, '@engram and now?');
    const summary = outcome.report?.blocks.find((block) => block.id === 'summary');
    assert.strictEqual(summary?.state, 'included');
    assert.match(summary?.text ?? '', /Drop the duplicate index first/);
  });

  it('opens the context panel, which receives the latest report after its ready handshake', async () => {
    await vscode.commands.executeCommand('engram.showContext');
    const panel = api.contextPanel();
    assert.ok(panel, 'the panel is open');
    await panel.whenReady();
    const posted = panel.lastPosted;
    assert.ok(posted && posted.type === 'report' && posted.report, 'a report was posted to the webview');
    assert.ok(posted.report.blocks.some((block) => block.id === 'conversation' && block.tokens > 0));
    assert.ok(posted.turns.length >= 2, 'earlier turns can be picked');
    panel.dispose();
  });
});
