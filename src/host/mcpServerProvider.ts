import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { storeLayout } from '../core/store/storeLayout';
import type { MemoryHost } from './memoryHost';

/** package.json's `mcpServerDefinitionProviders` id; VS Code names the server `<extension id>/<label>`. */
export const mcpProviderId = 'engram.memory';
export const mcpServerLabel = 'Engram memory';

/**
 * Offers Engram's MCP server (`dist/cli.js mcp`) to VS Code, over this window's store: VS Code's own agents (the
 * Copilot harness included, which sees no extension tools) reach the owner's memory through it. It runs as a
 * child of the extension host with the editor's Node, on stdio; it proposes facts, never confirms them.
 */
export function registerMcpServer(context: vscode.ExtensionContext, memory: MemoryHost, log: vscode.LogOutputChannel): vscode.Disposable {
  const changed = new vscode.EventEmitter<void>();
  const cli = vscode.Uri.joinPath(context.extensionUri, 'dist', 'cli.js').fsPath;
  const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');

  const definition = (): vscode.McpStdioServerDefinition => {
    const args = [cli, 'mcp', '--db', memory.folder];
    const allowlist = vscode.workspace.getConfiguration('engram').get<string>('allowlistFile', '').trim();
    if (allowlist) args.push('--allowlist', allowlist);
    // The project scope is a folder on this machine's disk: a remote window's folders are not (see README, Remote).
    const folder = vscode.workspace.workspaceFolders?.find((candidate) => candidate.uri.scheme === 'file');
    if (folder) args.push('--workspace', folder.uri.fsPath);
    // process.execPath is the editor's Node (Electron on the desktop, which then needs ELECTRON_RUN_AS_NODE).
    return new vscode.McpStdioServerDefinition(mcpServerLabel, process.execPath, args, { ELECTRON_RUN_AS_NODE: '1' }, version);
  };

  const provider: vscode.McpServerDefinitionProvider<vscode.McpStdioServerDefinition> = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: () => (memory.access.state === 'open' ? [definition()] : []),
    resolveMcpServerDefinition: async (server) => {
      const access = memory.access;
      if (access.state !== 'open') throw new Error(access.reason);
      // The server refuses a folder without a store on disk; a fresh window may not have written its first snapshot yet.
      if (!existsSync(storeLayout(memory.folder).snapshot)) await access.store.snapshot();
      log.info(`starting the MCP server: ${server.command} ${server.args.join(' ')}`);
      return server;
    },
  };

  return vscode.Disposable.from(
    changed,
    vscode.lm.registerMcpServerDefinitionProvider(mcpProviderId, provider),
    vscode.workspace.onDidChangeConfiguration((event) => event.affectsConfiguration('engram.allowlistFile') && changed.fire()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
  );
}
