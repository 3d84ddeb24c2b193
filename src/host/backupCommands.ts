import { join } from 'node:path';
import * as vscode from 'vscode';
import { describeImportPlan, describeImportResult } from '../core/backup/describeImport';
import { exportMemory } from '../core/backup/exportMemory';
import { importMemory, planImport } from '../core/backup/importMemory';
import { count } from '../core/backup/memoryFile';
import { memoryMarkdown } from '../core/backup/memoryMarkdown';
import { checkMemoryFileSize, parseMemoryFile, readMemoryFile } from '../core/backup/readMemoryFile';
import type { MemoryStore } from '../core/store/memoryStore';
import { writeFileAtomically } from '../core/store/snapshotFile';
import type { EngramMemory } from '../core/turn/engramMemory';

/**
 * Export Memory, Import Memory and Open Memory as Markdown: thin adapters over src/core/backup, the same code as
 * `engram export` and `engram import-memory`. Each takes its file as an argument too, so the tests run it without a dialog.
 */
export async function exportToFile(store: MemoryStore, target?: vscode.Uri): Promise<string | undefined> {
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
  if (uri.scheme === 'file') writeFileAtomically(uri.fsPath, Buffer.from(text, 'utf8'));
  else await vscode.workspace.fs.writeFile(uri, Buffer.from(text, 'utf8'));
  const facts = data.statements.filter((s) => s.status === 'confirmed').length;
  void vscode.window.showInformationMessage(
    `Engram exported ${count(data.sessions.length, 'conversation')}, ${count(facts, 'confirmed fact')} and ${count(data.behaviors.length, 'behaviour')} to ${uri.fsPath}.`,
  );
  return uri.fsPath;
}

/**
 * Shows what the file holds and what importing it changes here, then imports it when the owner says so (or at once with
 * `{ yes: true }`). A file that cannot be imported is refused, saying why, before anything is written.
 */
export async function importFromFile(memory: EngramMemory, source?: vscode.Uri, options: { yes?: boolean } = {}): Promise<string | undefined> {
  const uri =
    source ??
    (await vscode.window.showOpenDialog({ title: 'Import Engram memory', canSelectMany: false, filters: { 'Engram memory': ['json'] } }))?.[0];
  if (!uri) return undefined;
  let file;
  if (uri.scheme === 'file') file = readMemoryFile(uri.fsPath);
  else {
    checkMemoryFileSize(uri.fsPath, (await vscode.workspace.fs.stat(uri)).size);
    file = parseMemoryFile(uri.fsPath, await vscode.workspace.fs.readFile(uri));
  }
  const plan = planImport(memory.store, file);
  if (!options.yes) {
    const answer = await vscode.window.showInformationMessage('Import this memory backup?', { modal: true, detail: describeImportPlan(plan) }, 'Import');
    if (answer !== 'Import') return undefined;
  }
  const message = `Engram: ${describeImportResult(await importMemory(memory.store, file, memory.tokens, { plan }))}`;
  void vscode.window.showInformationMessage(message);
  return message;
}

/**
 * Writes the plain-file view of the memory beside the store and opens it, read-only in this window. It is written anew
 * each time and never read back (an edit in it changes nothing), so it always shows the memory as it is now.
 */
export async function openMemoryMarkdown(store: MemoryStore, folder: string): Promise<string> {
  const path = join(folder, 'memory.md');
  writeFileAtomically(path, Buffer.from(memoryMarkdown(store), 'utf8'));
  const uri = vscode.Uri.file(path);
  await vscode.window.showTextDocument(uri, { preview: false });
  try {
    await vscode.commands.executeCommand('workbench.action.files.setActiveEditorReadonlyInSession');
  } catch {
    // Older hosts lack the command: the notice at the top of the file still says an edit changes nothing.
  }
  return path;
}
