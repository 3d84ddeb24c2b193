import * as vscode from 'vscode';
import type { ToolCallRequest, ToolSpec } from '../core/llm/chatModel';
import type { ToolOutcome } from '../core/turn/memoryTools';
import { judgeTool } from '../core/turn/toolPolicy';
import type { ToolSettings } from './settings';

/** The text of a tool result: text parts as they are, prompt-tsx trees by their text nodes, data parts by type. */
function resultText(result: vscode.LanguageModelToolResult): string {
  const parts = result.content.map((part) => {
    if (part instanceof vscode.LanguageModelTextPart) return part.value;
    if (part instanceof vscode.LanguageModelPromptTsxPart) return textNodesOf(part.value).join('');
    if (part instanceof vscode.LanguageModelDataPart) return part.mimeType.startsWith('text/') || part.mimeType.includes('json') ? new TextDecoder().decode(part.data) : `[${part.mimeType} data]`;
    return '';
  });
  return parts.join('\n').trim() || '(the tool returned nothing)';
}

/** Copilot's tools answer in prompt-tsx, whose renderer Engram does not carry: its text nodes hold what it says. */
function textNodesOf(tree: unknown, found: string[] = []): string[] {
  if (Array.isArray(tree)) for (const item of tree) textNodesOf(item, found);
  else if (tree && typeof tree === 'object') {
    for (const [key, value] of Object.entries(tree)) {
      if (key === 'text' && typeof value === 'string') found.push(value);
      else textNodesOf(value, found);
    }
  }
  return found;
}

/** Characters of a tool's description a small model is sent (VS Code's terminal tool has 7,000, 1,900 tokens). */
const descriptionLimit = 1200;

/**
 * Cuts a long description at the last sentence end before the limit. Every request of a turn carries every offered
 * definition; whole, the terminal tool alone would take a third of an 8k prompt and could never be offered.
 */
function shortened(description: string): string {
  if (description.length <= descriptionLimit) return description;
  const head = description.slice(0, descriptionLimit);
  const end = Math.max(head.lastIndexOf('. '), head.lastIndexOf('.\n'));
  return `${end > descriptionLimit / 2 ? head.slice(0, end + 1) : head} (description shortened)`;
}

/**
 * VS Code's own tools (`vscode.lm.tools`) in @engram's loop: the read-only ones by default, the rest when
 * `engram.tools.allow` says, and any tool the user referenced in this message. They are invoked with the request's
 * `toolInvocationToken`, so VS Code shows each call in the chat and asks before edits and commands run.
 */
export class EditorToolRunner {
  private readonly allowed: ToolSpec[] = [];
  private readonly refused: { name: string; why: string }[] = [];

  constructor(
    private readonly invocationToken: vscode.ChatParticipantToolToken | undefined,
    private readonly token: vscode.CancellationToken,
    settings: ToolSettings,
    /** Names Engram runs itself (its memory tools are registered in VS Code too): not offered twice. */
    ownNames: ReadonlySet<string>,
    referenced: readonly string[],
  ) {
    for (const tool of vscode.lm.tools) {
      if (ownNames.has(tool.name)) continue;
      const verdict = referenced.includes(tool.name) ? { allowed: true, why: 'you referenced it' } : judgeTool(tool, settings.allow);
      if (!verdict.allowed) {
        this.refused.push({ name: tool.name, why: verdict.why });
        continue;
      }
      this.allowed.push({ name: tool.name, description: shortened(tool.description), inputSchema: tool.inputSchema ?? { type: 'object', properties: {} } });
    }
  }

  specs(): readonly ToolSpec[] {
    return this.allowed;
  }

  withheld(): readonly { name: string; why: string }[] {
    return this.refused;
  }

  handles(name: string): boolean {
    return this.allowed.some((spec) => spec.name === name);
  }

  async run(call: ToolCallRequest): Promise<ToolOutcome> {
    try {
      const result = await vscode.lm.invokeTool(call.name, { input: call.arguments, toolInvocationToken: this.invocationToken }, this.token);
      return { text: resultText(result), retrieval: [] };
    } catch (error) {
      // Phrased for the model: it may retry with a corrected input, as VS Code's tools themselves suggest.
      return { text: `Error: ${call.name} failed: ${error instanceof Error ? error.message : String(error)}`, retrieval: [] };
    }
  }
}
