import * as vscode from 'vscode';
import { isMemoryScope, searchMemory, type MemoryScope } from '../../core/recall/memorySearch';
import type { MemoryHost } from '../memoryHost';
import type { RetrievalSink } from './retrievalSink';
import { toolNames } from './toolNames';

/** Mirrors the inputSchema in package.json. */
interface MemorySearchInput {
  readonly query: string;
  readonly scope?: MemoryScope;
  readonly k?: number;
}

function checkInput(input: unknown): MemorySearchInput | string {
  const value = input as Partial<MemorySearchInput> | null;
  if (!value || typeof value.query !== 'string') return 'memory_search needs {"query": "<words to look for>"}.';
  if (value.scope !== undefined && !isMemoryScope(value.scope)) return 'scope must be one of "facts", "behaviors", "summaries", "all".';
  if (value.k !== undefined && (typeof value.k !== 'number' || value.k < 1 || value.k > 50)) return 'k must be a number from 1 to 50.';
  return value as MemorySearchInput;
}

/** memory_search: what the owner confirmed (facts), approved behaviours, and conversation summaries. Read-only. */
export class MemorySearchTool implements vscode.LanguageModelTool<MemorySearchInput> {
  constructor(
    private readonly memory: MemoryHost,
    private readonly sink: RetrievalSink,
  ) {}

  prepareInvocation(options: vscode.LanguageModelToolInvocationPrepareOptions<MemorySearchInput>): vscode.PreparedToolInvocation {
    return { invocationMessage: `Searching Engram's memory for "${String(options.input?.query ?? '').slice(0, 60)}"` };
  }

  async invoke(options: vscode.LanguageModelToolInvocationOptions<MemorySearchInput>): Promise<vscode.LanguageModelToolResult> {
    const input = checkInput(options.input);
    const text = (message: string): vscode.LanguageModelToolResult => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(message)]);
    if (typeof input === 'string') return text(`Error: ${input}`);
    const store = this.memory.store;
    if (!store) return text(`Error: Engram's memory is not available (${this.memory.unavailableReason ?? 'not opened'}). Answer without it.`);
    const hits = store.read((db) => searchMemory(db, input.query, input.scope ?? 'all', input.k ?? 8));
    this.sink.add(hits.map((hit) => ({ kind: hit.kind, memoryId: hit.id, via: `tool:${toolNames.memorySearch}`, label: hit.label })));
    if (hits.length === 0) return text(`No confirmed memory matches "${input.query}". Do not guess; ask the user if it matters.`);
    return text(
      `Confirmed memory matching "${input.query}" (the user confirmed these; treat them as facts about the user):\n` +
        hits.map((hit) => `- [${hit.kind}] ${hit.text}`).join('\n'),
    );
  }
}
