// The memory graph in a real VS Code: computed on every read, it opens on You, expands by click, shows where a
// fact came from, and a forgotten fact is gone on the next read.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import type { StatementRecord } from '../../src/core/memory/statementRepository';
import type { EngramApi } from '../../src/host/extension';
import { FakeOllama } from '../support/fakeOllama';
import { connectToStandIn, waitFor } from './engramApi';

describe('Engram memory graph', () => {
  const ollama = new FakeOllama({ models: [{ name: 'stand-in:latest', family: 'llama', contextLength: 8192 }] });
  let api: EngramApi;
  before(async () => {
    api = await connectToStandIn(ollama);
  });
  after(() => ollama.stop());

  it('opens on You, lists a confirmed fact under its key, and drops it on the next read after Forget Fact', async () => {
    const helix = await vscode.commands.executeCommand<StatementRecord>('engram.remember', 'editor', 'Helix');
    assert.ok(helix, 'remembered');
    await vscode.commands.executeCommand('engram.showMemoryGraph');
    const panel = api.memoryGraph();
    assert.ok(panel, 'the graph is open');
    const firstRender = panel.whenRendered();
    await panel.whenReady();
    const render = await firstRender;
    assert.ok(render.nodes > 0 && render.ms >= 0, 'the page reports what it rendered');
    const opening = panel.lastGraph;
    assert.strictEqual(opening?.nodes[0]?.id, 'you', 'it opens on You');
    assert.ok(opening.nodes.some((node) => node.id === 'key:editor'), 'keys of confirmed facts hang from You');
    assert.ok(!opening.nodes.some((node) => node.kind === 'fact'), 'facts appear on demand');

    let rendered = panel.whenRendered();
    panel.expand('key:editor');
    await rendered;
    const fact = panel.lastGraph?.nodes.find((node) => node.kind === 'fact' && node.parent === 'key:editor' && node.label.includes('Helix'));
    assert.ok(fact, 'the fact under its key');
    panel.select(fact.id);
    const posted = panel.lastPosted;
    assert.ok(posted?.type === 'provenance' && posted.provenance?.statementId === helix.id, 'its provenance is shown');

    rendered = panel.whenRendered();
    await vscode.commands.executeCommand('engram.forgetFact', helix.id);
    await waitFor(() => (panel.lastGraph?.nodes.some((node) => node.id === fact.id) ? undefined : true), 'the forgotten fact to leave the graph');
    await rendered;
    rendered = panel.whenRendered();
    panel.expand('retired');
    await rendered;
    const retired = panel.lastGraph?.nodes.find((node) => node.kind === 'retired' && node.label.includes('Helix'));
    assert.match(retired?.detail ?? '', /forgotten by the owner/, 'reachable on demand, with the reason');
    panel.dispose();
  });
});
