// Facts about the test host itself, so a broken harness fails here rather than inside the extension's own tests.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as vscode from 'vscode';

describe('test harness', () => {
  it('runs inside a VS Code extension host', () => {
    assert.ok(vscode.env.appName, 'vscode.env.appName should be set');
    assert.strictEqual(process.env.ENGRAM_TEST, '1', 'the runner should pass ENGRAM_TEST=1 to the extension host');
  });

  it('has the workspace folder open', () => {
    const folders = vscode.workspace.workspaceFolders ?? [];
    assert.strictEqual(folders.length, 1, 'exactly one workspace folder should be open');
    // The extension host runs where the files are (code-server's server), so the folder is a local path to it.
    assert.ok(fs.statSync(folders[0].uri.fsPath).isDirectory(), `${folders[0].uri.toString()} should be a folder`);
  });
});
