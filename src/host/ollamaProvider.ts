import * as vscode from 'vscode';
import type { ChatMessage, ChatModelPort, ModelDetails, ToolCallRequest, ToolSpec } from '../core/llm/chatModel';
import { ModelError } from '../core/llm/modelErrors';
import { OllamaChatModel } from '../core/llm/ollamaChatModel';
import { cl100kTokenCounter } from '../core/shared/tokenCounter';
import { readSettings } from './settings';

export const ollamaVendor = 'engram-ollama';

/** When the server does not report a window, assume Ollama's usual default rather than a huge one. */
const fallbackContextLength = 8192;

/**
 * The model information VS Code shows in its picker. `isUserSelectable` is read by the workbench though
 * it is not yet in the stable typings; without it the chat refuses every request when Copilot is absent.
 */
interface OllamaModelInformation extends vscode.LanguageModelChatInformation {
  readonly isUserSelectable: boolean;
  readonly reachable: boolean;
}

/** Serves the models of an Ollama server to VS Code's chat, so Engram works with no other AI extension. */
export class OllamaLanguageModelProvider implements vscode.LanguageModelChatProvider<OllamaModelInformation>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;

  constructor(private readonly createModel: () => ChatModelPort = defaultModelFactory) {}

  /** Asks VS Code to list the models again (after a settings change, or when the server came back). */
  refresh(): void {
    this.changed.fire();
  }

  async provideLanguageModelChatInformation(): Promise<OllamaModelInformation[]> {
    const model = this.createModel();
    const preferred = readSettings().model;
    try {
      const listed = await model.listModels();
      const details = await Promise.all(listed.map((info) => model.describeModel(info.name).catch(() => undefined)));
      const window = readSettings().ollamaContextLength;
      const models = listed.map((info, i) => toInformation(details[i] ?? { ...info, supportsTools: false }, true, window));
      return models.sort((a, b) => Number(b.id === preferred) - Number(a.id === preferred));
    } catch (error) {
      // Still offer one entry, so a request reaches Engram and the person reads what is wrong and how to fix it.
      const name = preferred || 'ollama';
      const why = error instanceof Error ? error.message : String(error);
      return [{ ...toInformation({ name, family: 'ollama', supportsTools: false }, false, readSettings().ollamaContextLength), detail: 'not reachable', tooltip: why }];
    }
  }

  async provideLanguageModelChatResponse(
    info: OllamaModelInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const abort = new AbortController();
    const cancellation = token.onCancellationRequested(() => abort.abort());
    try {
      // A model without tool support answers an offer of tools with an error: offer none.
      const offered = info.capabilities.toolCalling ? options.tools : undefined;
      const tools: ToolSpec[] | undefined = offered?.map((tool) => ({
        name: tool.name,
        description: tool.description,
        inputSchema: tool.inputSchema ?? { type: 'object', properties: {} },
      }));
      // The same runtime window the picker announced: without num_ctx Ollama would run its own (4k) and cut silently.
      const contextLength = info.maxInputTokens + info.maxOutputTokens;
      const stream = this.createModel().chat(info.id, toChatMessages(messages), { tools, contextLength, signal: abort.signal });
      for await (const chunk of stream) {
        if (chunk.kind === 'text') progress.report(new vscode.LanguageModelTextPart(chunk.text));
        else if (chunk.kind === 'toolCall') {
          progress.report(new vscode.LanguageModelToolCallPart(chunk.call.id, chunk.call.name, chunk.call.arguments));
        }
      }
    } catch (error) {
      if (token.isCancellationRequested) return;
      throw error instanceof ModelError ? new Error(error.message) : error;
    } finally {
      cancellation.dispose();
    }
  }

  async provideTokenCount(_info: OllamaModelInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    if (typeof text === 'string') return cl100kTokenCounter.count(text);
    return toChatMessages([text]).reduce((sum, message) => sum + cl100kTokenCounter.count(message.content), 0);
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function defaultModelFactory(): ChatModelPort {
  const settings = readSettings();
  return new OllamaChatModel({ host: settings.ollamaHost, responseTimeoutSeconds: settings.ollamaTimeoutSeconds });
}

/** `window`: engram.ollama.contextLength, the num_ctx Engram sends, capped by the model's maximum. */
function toInformation(model: ModelDetails, reachable: boolean, window: number): OllamaModelInformation {
  const contextLength = Math.min(window, model.contextLength ?? fallbackContextLength);
  // Leave room for the reply inside the window: a quarter of it, at most 4k tokens.
  const maxOutputTokens = Math.min(4096, Math.floor(contextLength / 4));
  return {
    id: model.name,
    name: model.name,
    family: model.family,
    version: model.name.split(':')[1] ?? 'latest',
    detail: [model.parameterSize, model.quantization].filter(Boolean).join(' ') || undefined,
    tooltip: `Ollama model ${model.name}, run with a ${contextLength}-token window (num_ctx; the model allows ${model.contextLength ?? 'an unknown number of'} tokens)`,
    maxInputTokens: contextLength - maxOutputTokens,
    maxOutputTokens,
    capabilities: { toolCalling: model.supportsTools, imageInput: false },
    isUserSelectable: true,
    reachable,
  };
}

/** Converts VS Code's request messages to the core's, turning tool results into Ollama's 'tool' messages. */
export function toChatMessages(messages: readonly vscode.LanguageModelChatRequestMessage[]): ChatMessage[] {
  const toolNames = new Map<string, string>();
  const converted: ChatMessage[] = [];
  for (const message of messages) {
    const role = message.role === vscode.LanguageModelChatMessageRole.Assistant ? 'assistant' : 'user';
    let text = '';
    const toolCalls: ToolCallRequest[] = [];
    for (const part of message.content) {
      if (part instanceof vscode.LanguageModelTextPart) text += part.value;
      else if (part instanceof vscode.LanguageModelToolCallPart) {
        toolNames.set(part.callId, part.name);
        toolCalls.push({ id: part.callId, name: part.name, arguments: (part.input ?? {}) as Record<string, unknown> });
      } else if (part instanceof vscode.LanguageModelToolResultPart) {
        converted.push({ role: 'tool', toolName: toolNames.get(part.callId), content: toolResultText(part) });
      }
    }
    if (text || toolCalls.length > 0) converted.push({ role, content: text, toolCalls: toolCalls.length ? toolCalls : undefined });
  }
  return converted;
}

function toolResultText(part: vscode.LanguageModelToolResultPart): string {
  return part.content
    .map((item) => (item instanceof vscode.LanguageModelTextPart ? item.value : JSON.stringify(item)))
    .join('');
}
