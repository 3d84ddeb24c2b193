// The memory commands in a real VS Code: export, import, forget a conversation; and cancelling a reply.
import * as assert from 'node:assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { registerDomainOperations } from '../../src/core/domains';
import { searchStoredTurns } from '../../src/core/recall/turnSearch';
import { MemoryStore } from '../../src/core/store/memoryStore';
import type { EngramApi } from '../../src/host/extension';
import { FakeOllama } from '../support/fakeOllama';
import { chat, connectToStandIn, waitFor } from './engramApi';

// These tests read the store as a second process would, so they know every domain's operations as it would.
registerDomainOperations();

async function readStore(folder: string): Promise<MemoryStore> {
  return MemoryStore.open({ folder, wasmPath: require.resolve('sql.js/dist/sql-wasm.wasm'), tokens: { count: () => 0 }, readOnly: true });
}

describe('Engram memory commands', () => {
  const ollama = new FakeOllama({ models: [{ name: 'stand-in:latest', family: 'llama', contextLength: 8192 }] });
  const scratch = mkdtempSync(join(tmpdir(), 'engram-commands-'));
  let api: EngramApi;

  before(async () => {
    api = await connectToStandIn(ollama);
  });
  after(() => ollama.stop());

  it('contributes every command it registers', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const manifest = vscode.extensions.getExtension('engram-dev.engram')?.packageJSON as { contributes: { commands: { command: string }[] } };
    const missing = manifest.contributes.commands.map((c) => c.command).filter((command) => !registered.has(command));
    assert.deepStrictEqual(missing, []);
  });

  it('exports a conversation to JSON, then forgets it from memory and disk', async () => {
    // A new chat is a new conversation in the store.
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    ollama.enqueue({ content: 'Noted, the zanzibarite build is slow.' });
    const outcome = await chat(api, '@engram the zanzibarite build is slow');
    await api.flush();
    const file = vscode.Uri.file(join(scratch, 'export.json'));
    await vscode.commands.executeCommand('engram.exportMemory', file);
    const exported = JSON.parse(readFileSync(file.fsPath, 'utf8'));
    const session = exported.sessions.find((s: { id: string }) => s.id === outcome.sessionId);
    assert.ok(session, 'the conversation is in the export');
    assert.deepStrictEqual(session.turns.map((t: { text: string }) => t.text), [
      'the zanzibarite build is slow',
      'Noted, the zanzibarite build is slow.',
    ]);

    const removed = await vscode.commands.executeCommand<number>('engram.forgetConversation', outcome.sessionId);
    assert.strictEqual(removed, 2);
    const reader = await readStore(api.storeFolder);
    try {
      assert.deepStrictEqual(reader.turns(outcome.sessionId), [], 'a second reader of the disk no longer sees it');
      assert.deepStrictEqual(searchStoredTurns(reader, 'zanzibarite'), []);
    } finally {
      await reader.close();
    }
  });

  it('imports a memory export, and names what is wrong with a bad one', async () => {
    const good = join(scratch, 'import.json');
    writeFileSync(
      good,
      JSON.stringify({
        format: 'engram-memory',
        version: 1,
        exportedAt: new Date().toISOString(),
        sessions: [{ id: 'moved-from-laptop', source: 'chat', turns: [{ id: 'moved-1', role: 'user', text: 'I moved machines', at: '2026-05-01T10:00:00Z' }] }],
      }),
    );
    // { yes: true } answers the question the command asks first (what the file holds, what importing changes).
    const message = await vscode.commands.executeCommand<string>('engram.importMemory', vscode.Uri.file(good), { yes: true });
    assert.match(message ?? '', /Imported 1 turn from 1 conversation, 0 facts/);
    const reader = await readStore(api.storeFolder);
    try {
      assert.deepStrictEqual(reader.turns('moved-from-laptop').map((t) => t.text), ['I moved machines']);
    } finally {
      await reader.close();
    }
    const bad = join(scratch, 'bad.json');
    writeFileSync(bad, '{"format":"something-else"}');
    const refused = await vscode.commands.executeCommand<string | undefined>('engram.importMemory', vscode.Uri.file(bad), { yes: true });
    assert.strictEqual(refused, undefined, 'nothing is imported from a file that is not an export');
  });

  it('exports every fact with its history, and opens the memory as a Markdown view that shows memory text literally', async () => {
    const facts = api.facts;
    assert.ok(facts, 'the memory is open');
    const fact = facts.remember('editor', '[open](command:workbench.action.terminal.new) <b>Helix</b>');
    await api.flush();
    try {
    const file = vscode.Uri.file(join(scratch, 'whole.json'));
    await vscode.commands.executeCommand('engram.exportMemory', file);
    const exported = JSON.parse(readFileSync(file.fsPath, 'utf8'));
    assert.strictEqual(exported.version, 2);
    const statement = exported.statements.find((s: { id: string }) => s.id === fact.id);
    assert.strictEqual(statement?.status, 'confirmed');
    assert.ok(statement.history.length >= 2, 'with its audit trail');

    const path = await vscode.commands.executeCommand<string>('engram.openMemoryMarkdown');
    const editor = await waitFor(() => (vscode.window.activeTextEditor?.document.fileName === path ? vscode.window.activeTextEditor : undefined), 'the Markdown view to open');
    const text = editor.document.getText();
    assert.match(text, /^# What Engram remembers\n\n> \*\*This file is a view, not the memory\.\*\* .* editing it changes nothing/);
    assert.ok(text.includes('- ` editor ` = ` [open](command:workbench.action.terminal.new) <b>Helix</b> ` — confirmed'), 'the value is a literal code span');
    assert.strictEqual(editor.document.languageId, 'markdown');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    } finally {
      // Later tests' prompts must not carry this fact.
      await facts.forget(fact.id);
    }
  });

  it('stops the model stream when the request is cancelled', async () => {
    ollama.enqueue({ chunks: Array.from({ length: 200 }, (_, i) => `word${i} `), delayMsPerChunk: 50 });
    const outcome = chat(api, '@engram write a very long answer');
    await waitFor(() => (ollama.chatRequests.some((r) => r.messages?.at(-1)?.content === 'write a very long answer') ? true : undefined), 'the request to reach the model');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await vscode.commands.executeCommand('workbench.action.chat.cancel');
    const finished = await outcome;
    assert.strictEqual(finished.cancelled, true);
    assert.ok(finished.reply.split(' ').length < 150, `the reply stopped early (${finished.reply.length} characters)`);
    await ollama.waitForAbortedChats(1, 5000);
  });
});
