import * as vscode from 'vscode';
import { runMemorySearch, type MemorySearchInput } from '../../core/turn/memoryTools';
import type { MemoryHost } from '../memoryHost';
import { toolResult } from './toolResult';

/**
 * memory_search for every agent and participant in VS Code (`#engram`); @engram runs the same core function in
 * its own loop. Read-only, so no confirmation.
 */
export class MemorySearchTool implements vscode.LanguageModelTool<MemorySearchInput> {
  constructor(
    private readonly memory: MemoryHost,
    /** The project of the active workspace folder: its facts come back beside the owner's, no other project's. */
    private readonly projectScope: () => string | undefined = () => undefined,
  ) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<MemorySearchInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: `Searching Engram's memory for "${String(options.input?.query ?? '').slice(0, 60)}"` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<MemorySearchInput>): Promise<vscode.LanguageModelToolResult> {
    const access = this.memory.access;
    if (access.state !== 'open') return toolResult(`Error: Engram's memory is not available (${access.reason}). Answer without it.`);
    return toolResult(runMemorySearch(access.store, options.input, this.projectScope()).text);
  }
}
