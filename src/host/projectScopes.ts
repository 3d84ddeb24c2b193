import * as vscode from 'vscode';
import { projectScopeOf, type ProjectScope } from '../core/project/projectScope';

/**
 * The projects of this window: one per workspace folder (a multi-root workspace has several). The chat uses the
 * folder of the active editor, else the first folder; no folder, no project (nothing project-scoped is used).
 */
export class ProjectScopes {
  private readonly known = new Map<string, ProjectScope>();

  all(): ProjectScope[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file').map((folder) => this.of(folder.uri.fsPath));
  }

  current(): ProjectScope | undefined {
    const active = vscode.window.activeTextEditor?.document.uri;
    const folder = (active && vscode.workspace.getWorkspaceFolder(active)) ?? vscode.workspace.workspaceFolders?.[0];
    return folder && folder.uri.scheme === 'file' ? this.of(folder.uri.fsPath) : undefined;
  }

  /** Reading .git (and running git once, for a repository without a remote) is done once per folder and window. */
  private of(path: string): ProjectScope {
    let scope = this.known.get(path);
    if (!scope) {
      scope = projectScopeOf(path);
      this.known.set(path, scope);
    }
    return scope;
  }
}
