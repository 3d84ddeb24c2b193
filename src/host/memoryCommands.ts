import * as vscode from 'vscode';
import { plural } from '../core/turn/promptBuilder';
import type { MemoryStore, SessionRecord } from '../core/store/memoryStore';
import type { EngramMemory } from '../core/turn/engramMemory';
import { exportToFile, importFromFile, openMemoryMarkdown } from './backupCommands';
import type { MemoryHost } from './memoryHost';

/**
 * Commands over the memory as a whole: forgetting, retention, backup. Each accepts its target as an
 * argument too (a session id, a file URI), so other commands and the tests can run it without a picker.
 */
export function registerMemoryCommands(memory: MemoryHost, log: vscode.LogOutputChannel): vscode.Disposable[] {
  const withMemory = <A extends unknown[]>(run: (memory: EngramMemory, ...args: A) => Promise<unknown>) =>
    async (...args: A): Promise<unknown> => {
      const access = memory.access;
      if (access.state !== 'open') {
        void vscode.window.showErrorMessage(access.reason);
        return undefined;
      }
      try {
        return await run(access, ...args);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        log.error(message);
        void vscode.window.showErrorMessage(`Engram: ${message}`);
        return undefined;
      }
    };
  const withStore = <A extends unknown[]>(run: (store: MemoryStore, ...args: A) => Promise<unknown>) =>
    withMemory((open: EngramMemory, ...args: A) => run(open.store, ...args));

  return [
    vscode.commands.registerCommand('engram.forgetConversation', withStore(forgetConversation)),
    vscode.commands.registerCommand('engram.forgetEverything', withStore(forgetEverything)),
    vscode.commands.registerCommand('engram.exportMemory', withStore(exportToFile)),
    vscode.commands.registerCommand('engram.importMemory', withMemory(importFromFile)),
    vscode.commands.registerCommand('engram.openMemoryMarkdown', withStore((store) => openMemoryMarkdown(store, memory.folder))),
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
