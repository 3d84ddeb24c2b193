import * as vscode from 'vscode';
import { NotRegularFileError, placeInRoots, readContained, type ContainedFileSystem, type ContainedRead } from '../core/shared/containedFile';
import { textOfContained, type WorkspaceDiagnostic, type WorkspaceFiles } from '../core/turn/workspaceTools';

const severities: Record<vscode.DiagnosticSeverity, WorkspaceDiagnostic['severity']> = {
  [vscode.DiagnosticSeverity.Error]: 'error',
  [vscode.DiagnosticSeverity.Warning]: 'warning',
  [vscode.DiagnosticSeverity.Information]: 'information',
  [vscode.DiagnosticSeverity.Hint]: 'hint',
};

/** A model-written path as a URI of the open workspace, by its spelling only (for diagnostics; reads are checked whole). */
function resolveInWorkspace(path: string): vscode.Uri | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const placed = placeInRoots(folders.map((folder) => folder.uri.path), path);
  if ('error' in placed) return undefined;
  const folder = folders.find((candidate) => candidate.uri.path === placed.root);
  return folder?.uri.with({ path: placed.absolute });
}

/**
 * A remote workspace's file system (a virtual folder: not on this host's disk) through `workspace.fs`. It cannot say
 * where a symbolic link points, so a path with a link anywhere along it is refused rather than followed.
 */
function editorFileSystem(folder: vscode.Uri): ContainedFileSystem {
  const at = (path: string) => folder.with({ path });
  return {
    async realPath(path) {
      const root = folder.path.replace(/\/$/, '');
      const steps = path.slice(root.length).split('/').filter(Boolean);
      for (let i = 1; i <= steps.length; i++) {
        const stat = await vscode.workspace.fs.stat(at(`${root}/${steps.slice(0, i).join('/')}`)).then(undefined, () => undefined);
        if (!stat) throw Object.assign(new Error('no such file'), { code: 'ENOENT' });
        if (stat.type & vscode.FileType.SymbolicLink) throw new Error(`${steps.slice(0, i).join('/')} is a symbolic link, and this workspace's file system cannot say where it points`);
      }
      return path;
    },
    async kind(path) {
      const stat = await vscode.workspace.fs.stat(at(path));
      return { type: stat.type & vscode.FileType.Directory ? 'folder' : stat.type & vscode.FileType.File ? 'file' : 'special', size: stat.size };
    },
    async readHead(path, maxBytes) {
      const stat = await vscode.workspace.fs.stat(at(path));
      if (!(stat.type & vscode.FileType.File)) throw new NotRegularFileError(`${path} is not a regular file`);
      // workspace.fs reads whole files only: one far beyond the cap is not fetched at all.
      if (stat.size > 8 * maxBytes) throw new Error(`it has ${stat.size.toLocaleString('en-US')} bytes, too many to fetch from this workspace's file system`);
      return (await vscode.workspace.fs.readFile(at(path))).subarray(0, maxBytes);
    },
  };
}

/** Reads a file of the workspace through the containment check: the local disk for local folders, workspace.fs otherwise. */
async function readChecked(path: string, maxBytes: number): Promise<ContainedRead> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const local = folders.filter((folder) => folder.uri.scheme === 'file');
  if (local.length === folders.length) return readContained(local.map((folder) => folder.uri.fsPath), path, maxBytes);
  const placed = placeInRoots(folders.map((folder) => folder.uri.path), path);
  if ('error' in placed) return placed;
  const folder = folders.find((candidate) => candidate.uri.path === placed.root)!;
  return readContained([folder.uri.path], placed.absolute, maxBytes, editorFileSystem(folder.uri));
}

/**
 * The workspace as Engram's own tools see it, through VS Code's stable API: open documents first (their unsaved
 * text), then the file itself (the local disk, or `workspace.fs` for a remote folder), `findFiles` and the diagnostics
 * VS Code shows. An open document is used only once the file passed the same check.
 */
export const vscodeWorkspaceFiles: WorkspaceFiles = {
  async read(path, maxBytes) {
    const read = textOfContained(await readChecked(path, maxBytes));
    if ('error' in read) return read;
    const uri = resolveInWorkspace(path);
    const open = uri && vscode.workspace.textDocuments.find((document) => document.uri.toString() === uri.toString());
    return open ? { path: read.path, text: open.getText() } : read;
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
