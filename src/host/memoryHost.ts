import * as vscode from 'vscode';
import { cl100kTokenCounter } from '../core/context/tokenCounter';
import { MemoryStore } from '../core/store/memoryStore';
import { StoreTooNewError } from '../core/store/migrations';

/**
 * Opens the memory store in the extension's globalStorage folder and tells the person about anything
 * that went wrong there. When the store cannot be opened, Engram still chats, without memory, and says so.
 */
export interface MemoryHost {
  readonly store: MemoryStore | undefined;
  /** Why there is no store, for the chat to say. */
  readonly unavailableReason: string | undefined;
  readonly folder: string;
}

export async function openMemory(context: vscode.ExtensionContext, log: vscode.LogOutputChannel): Promise<MemoryHost> {
  const folder = context.globalStorageUri.fsPath;
  const wasmPath = vscode.Uri.joinPath(context.extensionUri, 'dist', 'sql-wasm.wasm').fsPath;
  try {
    const store = await MemoryStore.open({
      folder,
      wasmPath,
      tokens: cl100kTokenCounter,
      onSaveError: (error) => {
        log.error(error.message);
        void vscode.window.showErrorMessage(
          `Engram could not save its memory: ${error.message}. Nothing is lost yet: it stays in this window and is retried.`,
        );
      },
    });
    log.info(`memory store opened at ${folder} (schema ${store.schemaVersion})`);
    if (store.damage) {
      log.warn(`store file damaged: ${store.damage.reason}; kept at ${store.damage.keptAt}`);
      void vscode.window
        .showWarningMessage(
          `Engram's memory file could not be read (${store.damage.reason}). It was kept at ${store.damage.keptAt}, ` +
            'untouched, and a new memory was started.',
          'Open Folder',
        )
        .then((choice) => choice && vscode.commands.executeCommand('engram.openStoreFolder'));
    }
    return { store, unavailableReason: undefined, folder };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    log.error(`memory store unavailable: ${message}`);
    const reason = error instanceof StoreTooNewError ? error.message : `Engram could not open its memory at ${folder}: ${message}`;
    void vscode.window.showErrorMessage(reason, 'Open Folder').then((choice) => choice && vscode.commands.executeCommand('engram.openStoreFolder'));
    return { store: undefined, unavailableReason: reason, folder };
  }
}
