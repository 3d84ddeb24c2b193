import * as vscode from 'vscode';
import { attachmentText } from '../core/context/attachments';
import type { WorkspaceDiagnostic, WorkspaceFiles } from '../core/turn/workspaceTools';

const severities: Record<vscode.DiagnosticSeverity, WorkspaceDiagnostic['severity']> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

/** A model-written path inside the open workspace: relative to a folder, or absolute within one. Nothing outside. */
function resolveInWorkspace(path: string): vscode.Uri | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const clean = path.replace(/^\.\//, '');
  for (const folder of folders) {
    const root = folder.uri.path.replace(/\/$/, '');
    if (clean.startsWith(`${root}/`)) return folder.uri.with({ path: clean });
  }
  if (clean.startsWith('/') || clean.split('/').includes('..') || folders.length === 0) return undefined;
  return vscode.Uri.joinPath(folders[0].uri, clean);
}

/**
 * The workspace as Engram's own tools see it, through VS Code's stable API: open documents first (their unsaved
 * text), then `workspace.fs` (which also reaches remote workspaces), `findFiles` and the diagnostics VS Code shows.
 */
export const vscodeWorkspaceFiles: WorkspaceFiles = {
  async read(path, maxBytes) {
    const uri = resolveInWorkspace(path);
    if (!uri) return { error: `${path} is not inside the open workspace; give a path relative to the workspace folder` };
    const shown = vscode.workspace.asRelativePath(uri, false);
    const open = vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
    if (open) return { path: shown, text: open.getText() };
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.type & vscode.FileType.Directory) return { error: `${shown} is a folder; call the find tool with a pattern such as ${shown}/**` };
      if (stat.size > maxBytes) return { error: `${shown} has ${stat.size} bytes, more than ${maxBytes} can be read; ask for a line range with startLine and endLine` };
      const read = attachmentText(await vscode.workspace.fs.readFile(uri));
      return 'problem' in read ? { error: `${shown} is ${read.problem}` } : { path: shown, text: read.text };
    } catch {
      return { error: `there is no file ${shown} in the workspace; find it first with a glob pattern` };
    }
  },
  async find(pattern, max) {
    const found = await vscode.workspace.findFiles(pattern, '**/{node_modules,.git}/**', max);
    return found.map((uri) => vscode.workspace.asRelativePath(uri, false)).sort();
  },
  async diagnostics(path) {
    const only = path ? resolveInWorkspace(path) : undefined;
    const entries: [vscode.Uri, readonly vscode.Diagnostic[]][] = only ? [[only, vscode.languages.getDiagnostics(only)]] : vscode.languages.getDiagnostics();
    return entries.flatMap(([uri, diagnostics]) =>
      diagnostics.map((diagnostic) => ({
        path: vscode.workspace.asRelativePath(uri, false),
        line: diagnostic.range.start.line + 1,
        severity: severities[diagnostic.severity],
        message: diagnostic.message,
        source: diagnostic.source,
      })),
    );
  },
};
