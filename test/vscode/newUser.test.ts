// What a new user trips on, fixed: Show Source Turn opens a read-only document over memory (not an Untitled copy
// that survives reloads), and Open Memory Folder in a browser-hosted VS Code shows the path instead of opening a
// new window that becomes the default folder.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { FakeOllama } from '../support/fakeOllama';
import { connectToStandIn } from './engramApi';

describe('Engram for a new user', () => {
  const ollama = new FakeOllama();
  before(() => connectToStandIn(ollama));
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await ollama.stop();
  });

  it('shows a fact’s source as a read-only document read from memory, not an untitled copy', async () => {
    const fact = await vscode.commands.executeCommand<{ id: string }>('engram.remember', 'editor', 'Helix');
    const document = await vscode.commands.executeCommand<vscode.TextDocument>('engram.showSourceTurn', fact.id);
    assert.ok(document, 'a document was opened');
    assert.strictEqual(document.uri.scheme, 'engram-memory');
    assert.strictEqual(document.isUntitled, false);
    assert.match(document.getText(), /^# editor = Helix/);
    assert.match(document.getText(), /## Audit trail/);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.writeFile(document.uri, Buffer.from('edited'))), 'memory documents cannot be written');
    // Read from memory each time, never a stale copy: forgotten, the fact reads as retired.
    await vscode.commands.executeCommand('engram.forgetFact', fact.id);
    const reread = new TextDecoder().decode(await vscode.workspace.fs.readFile(document.uri));
    assert.match(reread, /Status: retired/);
  });

  it('shows the memory folder in a browser-hosted VS Code without opening another window', async () => {
    const before = vscode.workspace.workspaceFolders?.map((folder) => folder.uri.toString());
    const how = await vscode.commands.executeCommand<string>('engram.openStoreFolder');
    assert.strictEqual(how, vscode.env.uiKind === vscode.UIKind.Desktop ? 'revealed' : 'shown');
    assert.deepStrictEqual(vscode.workspace.workspaceFolders?.map((folder) => folder.uri.toString()), before);
  });
});
