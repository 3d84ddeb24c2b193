import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { defaultAllowlist, defaultAllowlistYaml, parseAllowlist, type Allowlist } from '../core/memory/allowlist';

/**
 * The key allowlist in force: the owner's file when `engram.allowlistFile` names one, else the shipped
 * defaults. A file that does not parse is reported and the defaults are used until it is fixed.
 */
export class AllowlistHost implements vscode.Disposable {
  private current: Allowlist = defaultAllowlist;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly storeFolder: string,
    private readonly log: vscode.LogOutputChannel,
  ) {
    this.reload();
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((event) => event.affectsConfiguration('engram.allowlistFile') && this.reload()),
      vscode.workspace.onDidSaveTextDocument((document) => document.uri.fsPath === this.file() && this.reload()),
      vscode.commands.registerCommand('engram.editAllowlist', () => this.openForEditing()),
    );
  }

  get allowlist(): Allowlist {
    return this.current;
  }

  private file(): string | undefined {
    const configured = vscode.workspace.getConfiguration('engram').get<string>('allowlistFile', '').trim();
    return configured || undefined;
  }

  reload(): void {
    const file = this.file();
    if (!file) {
      this.current = defaultAllowlist;
      return;
    }
    try {
      this.current = parseAllowlist(readFileSync(file, 'utf8'));
      this.log.info(`key allowlist: ${this.current.size} keys from ${file}`);
    } catch (error) {
      this.current = defaultAllowlist;
      const message = `Engram's key allowlist at ${file} could not be used (${(error as Error).message}); the default keys apply until it is fixed.`;
      this.log.warn(message);
      void vscode.window.showWarningMessage(message);
    }
  }

  /** Opens the owner's copy of the allowlist, creating it from the defaults the first time. */
  private async openForEditing(): Promise<void> {
    let file = this.file();
    if (!file) {
      file = join(this.storeFolder, 'allowlist.yaml');
      if (!existsSync(file)) writeFileSync(file, defaultAllowlistYaml);
      await vscode.workspace.getConfiguration('engram').update('allowlistFile', file, vscode.ConfigurationTarget.Global);
    } else if (!existsSync(file)) {
      writeFileSync(file, defaultAllowlistYaml);
    }
    await vscode.window.showTextDocument(vscode.Uri.file(file));
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}
