import * as vscode from 'vscode';
import { runRecall, type RecallInput } from '../../core/turn/memoryTools';
import type { MemoryHost } from '../memoryHost';
import type { VectorHost } from '../vectorHost';
import { toolResult } from './toolResult';

/** recall_conversation for every agent and participant in VS Code (`#engramRecall`). Read-only. */
export class RecallConversationTool implements vscode.LanguageModelTool<RecallInput> {
  constructor(
    private readonly memory: MemoryHost,
    /** Vectors, when an embedding model is configured: words and meaning then rank together. */
    private readonly vectors: VectorHost,
  ) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<RecallInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: `Recalling earlier conversations about "${String(options.input?.query ?? '').slice(0, 60)}"` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<RecallInput>): Promise<vscode.LanguageModelToolResult> {
    const access = this.memory.access;
    if (access.state !== 'open') return toolResult(`Error: Engram's memory is not available (${access.reason}). Answer without it.`);
    const query = typeof options.input?.query === 'string' ? options.input.query : '';
    const meaning = query.trim() ? await this.vectors.meaningOf(query) : undefined;
    return toolResult(runRecall(access, options.input, meaning).text);
  }
}
