import * as vscode from 'vscode';
import type { ChatChunk, ChatMessage } from '../core/llm/chatModel';
import { OllamaChatModel } from '../core/llm/ollamaChatModel';
import { OllamaTurnModel } from '../core/turn/ollamaTurnModel';
import type { RuntimeWindow, SendOptions, TurnModel } from '../core/turn/turnModel';
import { ollamaVendor } from './ollamaProvider';
import { readSettings } from './settings';

/**
 * A model of another vendor in an @engram turn, through VS Code's chat API. That API has no system role, so
 * the opening instructions go as the first user message, and the report says so.
 */
class VsCodeTurnModel implements TurnModel {
  readonly systemDelivery = 'first user message' as const;

  constructor(
    private readonly model: vscode.LanguageModelChat,
    private readonly token: vscode.CancellationToken,
  ) {}

  get id(): string {
    return this.model.id;
  }
  get name(): string {
    return this.model.name;
  }
  get vendor(): string {
    return this.model.vendor;
  }

  async window(): Promise<RuntimeWindow> {
    // VS Code reports the input limit only; the vendor keeps its own room for the reply.
    const tokens = this.model.maxInputTokens;
    return { tokens, replyReserve: 0, why: `the input limit ${this.model.vendor} reports for ${this.model.name}` };
  }

  async *send(messages: readonly ChatMessage[], options: SendOptions): AsyncIterable<ChatChunk> {
    const tools = options.tools.map((tool): vscode.LanguageModelChatTool => ({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema }));
    // A tool the user referenced: VS Code's vendors can be made to call it (Ollama cannot; the prompt asks instead).
    const toolMode = options.requireTool && tools.length ? vscode.LanguageModelChatToolMode.Required : undefined;
    const response = await this.model.sendRequest(toVsCodeMessages(messages), tools.length ? { tools, ...(toolMode ? { toolMode } : {}) } : {}, this.token);
    for await (const part of response.stream) {
      if (part instanceof vscode.LanguageModelTextPart) yield { kind: 'text', text: part.value };
      else if (part instanceof vscode.LanguageModelToolCallPart) {
        yield { kind: 'toolCall', call: { id: part.callId, name: part.name, arguments: (part.input ?? {}) as Record<string, unknown> } };
      }
    }
    yield { kind: 'done' };
  }

  explain(error: unknown): string {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof vscode.LanguageModelError && error.code === vscode.LanguageModelError.NoPermissions.name) {
      return `Engram may not use the model "${this.model.name}" yet: allow it when VS Code asks, then send the message again.`;
    }
    return message || `The model "${this.model.name}" failed without saying why.`;
  }
}

/** The core's messages in VS Code's shape: tool calls as parts of an assistant message, results as parts of a user one. */
function toVsCodeMessages(messages: readonly ChatMessage[]): vscode.LanguageModelChatMessage[] {
  const pendingCalls: string[] = [];
  return messages.map((message) => {
    if (message.role === 'assistant') {
      const calls = (message.toolCalls ?? []).map((call) => {
        pendingCalls.push(call.id);
        return new vscode.LanguageModelToolCallPart(call.id, call.name, call.arguments);
      });
      return vscode.LanguageModelChatMessage.Assistant(calls.length ? [...(message.content ? [new vscode.LanguageModelTextPart(message.content)] : []), ...calls] : message.content);
    }
    if (message.role === 'tool') {
      const callId = pendingCalls.shift() ?? 'unknown';
      return vscode.LanguageModelChatMessage.User([new vscode.LanguageModelToolResultPart(callId, [new vscode.LanguageModelTextPart(message.content)])]);
    }
    return vscode.LanguageModelChatMessage.User(message.content);
  });
}

/**
 * The model of a turn: Engram's own Ollama models are called through the core (a real system message and
 * `num_ctx`, so the prompt reported is the prompt Ollama runs); any other model through VS Code.
 * Ollama models are kept per name and window, so the window is chosen (and the model loaded) once.
 */
export class TurnModels {
  private readonly ollama = new Map<string, OllamaTurnModel>();

  forRequest(model: vscode.LanguageModelChat, token: vscode.CancellationToken): TurnModel {
    if (model.vendor !== ollamaVendor) return new VsCodeTurnModel(model, token);
    const settings = readSettings();
    const key = `${settings.ollamaHost}|${model.id}|${settings.ollamaContextLength}`;
    let turnModel = this.ollama.get(key);
    if (!turnModel) {
      const port = new OllamaChatModel({ host: settings.ollamaHost, responseTimeoutSeconds: settings.ollamaTimeoutSeconds });
      turnModel = new OllamaTurnModel(port, model.id, settings.ollamaContextLength);
      this.ollama.set(key, turnModel);
    }
    return turnModel;
  }
}
