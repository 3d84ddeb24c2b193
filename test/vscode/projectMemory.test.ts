// Project memory in a real VS Code: a fact said in the chat of a workspace belongs to its project, the Memory view
// shows "This project" beside "You", and Share Project Facts writes the reviewable file into the folder.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { EngramApi } from '../../src/host/extension';
import { chat, withStandInChat } from './engramApi';

describe('Engram project memory', () => {
  const { ollama, api: connected } = withStandInChat();
  let api: EngramApi;
  before(() => (api = connected()));

  it('learns "we use vitest here" for this project, not for the owner, and shows This project beside You', async () => {
    const outcome = await chat(api, '@engram we use vitest here');
    assert.deepStrictEqual(outcome.learned.map((s) => `${s.key}=${s.value}`), ['test_framework=vitest']);
    assert.match(outcome.learned[0].scope, /^project:/);
    // (Other suites share this store and may hold an owner test_framework of their own: the check is on this fact.)
    assert.ok(!(api.facts?.list('confirmed') ?? []).some((s) => s.id === outcome.learned[0].id), 'not an owner fact');
    const system = ollama.chatRequests.at(-1)?.messages?.[0]?.content ?? '';
    assert.match(system, /test_framework: vitest/, 'the next prompt of this workspace carries it');
    await vscode.commands.executeCommand('engram.rememberForProject', 'do_not_touch', 'generated/');
    const tree = await vscode.commands.executeCommand<{ labels: string[] }>('engram.describeMemoryTree');
    assert.ok(tree.labels.includes('You'), `tree: ${tree.labels.join(' | ')}`);
    assert.ok(tree.labels.some((label) => label.startsWith('This project: ')), `tree: ${tree.labels.join(' | ')}`);
    assert.ok(tree.labels.includes('vitest') && tree.labels.includes('generated/'), `tree: ${tree.labels.join(' | ')}`);
  });

  it('shares the confirmed project facts as a readable file in the workspace folder', async () => {
    const shared = await vscode.commands.executeCommand<{ path: string; facts: number }>('engram.shareProjectFacts', true);
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    assert.strictEqual(path.relative(folder, shared.path), path.join('.engram', 'project-facts.md'));
    const text = fs.readFileSync(shared.path, 'utf8');
    assert.match(text, /^- test_framework = vitest$/m);
    assert.match(text, /^- do_not_touch = generated\/$/m);
  });

  it('shows This project beside You in the memory graph, with this project\'s facts', async () => {
    await vscode.commands.executeCommand('engram.showMemoryGraph');
    const panel = api.memoryGraph();
    assert.ok(panel, 'the graph is open');
    await panel.whenReady();
    panel.expand('project');
    const project = panel.lastGraph?.nodes.find((node) => node.kind === 'project');
    assert.match(project?.label ?? '', /^This project: /);
    const facts = panel.lastGraph?.nodes.filter((node) => node.parent === 'project').map((node) => node.label) ?? [];
    assert.ok(facts.includes('test_framework: vitest'), facts.join(' | '));
    panel.dispose();
  });
});
