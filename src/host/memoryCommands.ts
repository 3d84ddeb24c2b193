import { readFileSync, writeFileSync } from 'node:fs';
import * as vscode from 'vscode';
import { plural } from '../core/turn/promptBuilder';
import { checkMemoryExport, exportMemory, importMemory } from '../core/store/memoryExport';
import type { MemoryStore, SessionRecord } from '../core/store/memoryStore';
import type { MemoryHost } from './memoryHost';

/**
 * Commands over the memory as a whole: forgetting, retention, backup. Each accepts its target as an
 * argument too (a session id, a file URI), so other commands and the tests can run it without a picker.
 */
export function registerMemoryCommands(memory: MemoryHost, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const withStore = <A extends unknown[]>(run: (store: MemoryStore, ...args: A) => Promise<unknown>) =>
    async (...args: A): Promise<unknown> => {
      const access = memory.access;
      if (access.state !== 'open') {
        void vscode.window.showErrorMessage(access.reason);
        return undefined;
      }
      try {
        return await run(access.store, ...args);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log.error(message);
        void vscode.window.showErrorMessage(`Engram: ${message}`);
        return undefined;
      }
    };

  return [
    vscode.commands.registerCommand('engram.forgetConversation', withStore(forgetConversation)),
    vscode.commands.registerCommand('engram.forgetEverything', withStore(forgetEverything)),
    vscode.commands.registerCommand('engram.exportMemory', withStore(exportToFile)),
    vscode.commands.registerCommand('engram.importMemory', withStore(importFromFile)),
  ];
}

function describeSession(session: SessionRecord): vscode.QuickPickItem & { id: string } {
  const when = new Date(session.lastAt).toLocaleString();
  return {
    id: session.id,
    label: session.opening ? session.opening.replace(/\s+/g, ' ').slice(0, 80) : '(no words from you)',
    description: `${session.turns} turns`,
    detail: `${when}${session.source === 'import' ? ' · imported' : ''}${session.cooledAt ? ' · cooled to its summary' : ''}`,
  };
}

async function forgetConversation(store: MemoryStore, sessionId?: string): Promise<number | undefined> {
  let target = sessionId;
  if (!target) {
    const sessions = store.listSessions();
    if (sessions.length === 0) {
      void vscode.window.showInformationMessage('Engram remembers no conversations.');
      return undefined;
    }
    const picked = await vscode.window.showQuickPick(sessions.map(describeSession), {
      title: 'Forget a conversation',
      placeHolder: 'The conversation is removed from memory, its search index and its files on disk',
      matchOnDescription: true,
      matchOnDetail: true,
    });
    target = picked?.id;
  }
  if (!target) return undefined;
  const removed = await store.forgetSessions([target]);
  void vscode.window.showInformationMessage(`Engram forgot that conversation (${plural(removed, 'turn')}).`);
  return removed;
}

async function forgetEverything(store: MemoryStore): Promise<number | undefined> {
  const stats = store.stats();
  const answer = await vscode.window.showWarningMessage(
    `Forget everything Engram remembers? ${plural(stats.turns, 'turn')} in ${plural(stats.sessions, 'conversation')} are removed from this ` +
      'machine, including their search index. This cannot be undone (Export Memory first to keep a copy).',
    { modal: true },
    'Forget Everything',
  );
  if (answer !== 'Forget Everything') return undefined;
  const removed = await store.forgetEverything();
  void vscode.window.showInformationMessage(`Engram forgot everything (${plural(removed, 'turn')}).`);
  return removed;
}

async function exportToFile(store: MemoryStore, target?: vscode.Uri): Promise<string | undefined> {
  const uri =
    target ??
    (await vscode.window.showSaveDialog({
      title: 'Export Engram memory',
      defaultUri: vscode.Uri.file(`engram-memory-${new Date().toISOString().slice(0, 10)}.json`),
      filters: { 'Engram memory': ['json'] },
    }));
  if (!uri) return undefined;
  const data = exportMemory(store);
  const text = JSON.stringify(data, null, 2);
  // On the UI side of a remote window the dialog may pick a remote file: only VS Code's file system reaches it.
  if (uri.scheme === 'file') writeFileSync(uri.fsPath, text, { mode: 0o600 });
  else await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
  void vscode.window.showInformationMessage(`Engram exported ${plural(data.sessions.length, 'conversation')} to ${uri.fsPath}.`);
  return uri.fsPath;
}

async function importFromFile(store: MemoryStore, source?: vscode.Uri): Promise<string | undefined> {
  const uri =
    source ??
    (await vscode.window.showOpenDialog({ title: 'Import Engram memory', canSelectMany: false, filters: { 'Engram memory': ['json'] } }))?.[0];
  if (!uri) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(uri.scheme === 'file' ? readFileSync(uri.fsPath, 'utf8') : Buffer.from(await vscode.workspace.fs.readFile(uri)).toString('utf8'));
  } catch (error) {
    throw new Error(`${uri.fsPath} is not readable JSON (${(error as Error).message}); nothing was imported.`);
  }
  const checked = checkMemoryExport(parsed);
  if (typeof checked === 'string') throw new Error(`${uri.fsPath}: ${checked}; nothing was imported.`);
  const result = await importMemory(store, checked);
  const message =
    `Engram imported ${plural(result.turnsAdded, 'turn')} from ${plural(result.sessions, 'conversation')}` +
    (result.turnsAlreadyStored ? ` (${plural(result.turnsAlreadyStored, 'turn')} already remembered).` : '.');
  void vscode.window.showInformationMessage(message);
  return message;
}
