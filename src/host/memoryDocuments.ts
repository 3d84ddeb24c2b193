import * as vscode from 'vscode';
import type { Facts } from '../core/memory/facts';
import { describeFactSource } from './memoryTreeModel';

/** Read-only documents Engram shows (a fact's source and audit trail), read from memory every time they open. */
export const memoryScheme = 'engram-memory';

/** The document of a fact's source: the id finds it, the key names the tab. */
export function factSourceUri(statement: { readonly id: string; readonly key: string }): vscode.Uri {
  return vscode.Uri.from({ scheme: memoryScheme, path: `/facts/${statement.id}/Source of ${statement.key}.md` });
}

function statementIdOf(uri: vscode.Uri): string | undefined {
  return /^\/facts\/([^/]+)\//.exec(uri.path)?.[1];
}

/**
 * A read-only file system over memory. Not an untitled document: those survive a reload as unsaved copies of memory
 * text (still there after the fact is forgotten) and ask to be saved on close. These are re-read from memory on
 * every open, refresh when memory changes, reopen after a reload (VS Code activates Engram for the scheme), and a
 * forgotten fact's document is simply gone.
 */
export class MemoryDocuments implements vscode.FileSystemProvider {
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;
  private readonly watched = new Set<string>();

  constructor(private readonly facts: () => Facts | undefined, onDidChangeMemory: vscode.Event<void>) {
    onDidChangeMemory(() => this.changed.fire([...this.watched].map((uri) => ({ type: vscode.FileChangeType.Changed, uri: vscode.Uri.parse(uri) }))));
  }

  private content(uri: vscode.Uri): Uint8Array {
    const facts = this.facts();
    const id = statementIdOf(uri);
    if (!facts || !id) throw vscode.FileSystemError.FileNotFound(uri);
    try {
      return new TextEncoder().encode(describeFactSource(facts.get(id), facts.history(id)));
    } catch {
      throw vscode.FileSystemError.FileNotFound(uri);
    }
  }

  watch(uri: vscode.Uri): vscode.Disposable {
    this.watched.add(uri.toString());
    return new vscode.Disposable(() => this.watched.delete(uri.toString()));
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const size = this.content(uri).byteLength;
    return { type: vscode.FileType.File, ctime: 0, mtime: Date.now(), size, permissions: vscode.FilePermission.Readonly };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    return this.content(uri);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  writeFile(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  dispose(): void {
    this.changed.dispose();
  }
}
