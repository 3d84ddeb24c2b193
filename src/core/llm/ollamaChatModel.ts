import { randomUUID } from 'node:crypto';
import { Ollama, type Message as OllamaMessage, type Tool as OllamaTool } from 'ollama';
import type {
  ChatChunk,
  ChatMessage,
  ChatModelPort,
  ChatRequestOptions,
  ModelDetails,
  ModelInfo,
  ToolSpec,
} from './chatModel';
import { cancelled, isAbort, isConnectionFailure, ModelError, modelMissing, notRunning, timedOut } from './modelErrors';

export interface OllamaChatModelOptions {
  /** Base URL of the Ollama server, e.g. http://127.0.0.1:11434 */
  readonly host: string;
  /** How long to wait for the server to start answering (not for the whole reply). */
  readonly responseTimeoutSeconds?: number;
}

/** The model port backed by the `ollama` package, talking HTTP to an Ollama server. */
export class OllamaChatModel implements ChatModelPort {
  readonly endpoint: string;
  private readonly timeoutSeconds: number;

  constructor(options: OllamaChatModelOptions) {
    this.endpoint = options.host.replace(/\/+$/, '');
    this.timeoutSeconds = options.responseTimeoutSeconds ?? 120;
  }

  async listModels(): Promise<ModelInfo[]> {
    const response = await this.call(() => this.client().list());
    return response.models.map((model) => ({
      name: model.name,
      family: model.details?.family || model.name.split(':')[0],
      parameterSize: model.details?.parameter_size || undefined,
      quantization: model.details?.quantization_level || undefined,
    }));
  }

  async describeModel(name: string): Promise<ModelDetails> {
    const shown = await this.call(() => this.client().show({ model: name }), name);
    const info = toRecord(shown.model_info);
    const contextKey = Object.keys(info).find((key) => key.endsWith('.context_length'));
    const contextLength = contextKey ? Number(info[contextKey]) : undefined;
    return {
      name,
      family: shown.details?.family || name.split(':')[0],
      parameterSize: shown.details?.parameter_size || undefined,
      quantization: shown.details?.quantization_level || undefined,
      contextLength: contextLength && Number.isFinite(contextLength) ? contextLength : undefined,
      supportsTools: Array.isArray(shown.capabilities) ? shown.capabilities.includes('tools') : false,
      supportsThinking: Array.isArray(shown.capabilities) ? shown.capabilities.includes('thinking') : false,
    };
  }

  async *chat(model: string, messages: readonly ChatMessage[], options: ChatRequestOptions = {}): AsyncIterable<ChatChunk> {
    const { signal } = options;
    if (signal?.aborted) throw cancelled();
    const stream = await this.call(
      () =>
        this.client(signal).chat({
          model,
          messages: messages.map(toOllamaMessage),
          tools: options.tools?.map(toOllamaTool),
          options: options.contextLength ? { num_ctx: options.contextLength } : undefined,
          format: options.format as string | object | undefined,
          ...(options.think !== undefined ? { think: options.think } : {}),
          stream: true,
        }),
      model,
      signal,
    );
    const stopStream = (): void => stream.abort();
    signal?.addEventListener('abort', stopStream, { once: true });
    try {
      for await (const part of stream) {
        // Thinking first: a thinking model reasons before it answers, and its reasoning is never the answer.
        if (part.message?.thinking) yield { kind: 'thinking', text: part.message.thinking };
        if (part.message?.content) yield { kind: 'text', text: part.message.content };
        for (const call of part.message?.tool_calls ?? []) {
          yield {
            kind: 'toolCall',
            call: { id: `call_${randomUUID()}`, name: call.function.name, arguments: call.function.arguments ?? {} },
          };
        }
        if (part.done) {
          yield { kind: 'done', promptTokens: part.prompt_eval_count, outputTokens: part.eval_count };
        }
      }
    } catch (error) {
      throw this.explain(error, model, signal);
    } finally {
      signal?.removeEventListener('abort', stopStream);
    }
  }

  async loadedContextLength(model: string): Promise<number | undefined> {
    const response = await this.call(() => this.client().ps(), model);
    const loaded = response.models.find((entry) => entry.name === model || entry.model === model || entry.name === `${model}:latest`);
    // `context_length` is newer than the package's typings: read it untyped.
    const allocated = Number((loaded as unknown as Record<string, unknown> | undefined)?.context_length);
    return Number.isFinite(allocated) && allocated > 0 ? allocated : undefined;
  }

  async embed(model: string, texts: readonly string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    const response = await this.call(() => this.client().embed({ model, input: [...texts] }), model);
    return response.embeddings;
  }

  /** A client per call, so aborting one request never aborts another. */
  private client(signal?: AbortSignal): Ollama {
    const timeoutMs = this.timeoutSeconds * 1000;
    const fetchWithTimeout: typeof fetch = async (input, init) => {
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(new TimeoutMarker()), timeoutMs);
      const signals = [timeout.signal, init?.signal, signal].filter((s): s is AbortSignal => !!s);
      try {
        return await fetch(input, { ...init, signal: AbortSignal.any(signals) });
      } catch (error) {
        if (timeout.signal.aborted) throw new TimeoutMarker();
        throw error;
      } finally {
        clearTimeout(timer);
      }
    };
    return new Ollama({ host: this.endpoint, fetch: fetchWithTimeout });
  }

  private async call<T>(work: () => Promise<T>, model?: string, signal?: AbortSignal): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw this.explain(error, model, signal);
    }
  }

  private explain(error: unknown, model: string | undefined, signal: AbortSignal | undefined): Error {
    if (error instanceof ModelError) return error;
    if (error instanceof TimeoutMarker) return timedOut(this.endpoint, this.timeoutSeconds, error);
    if (signal?.aborted || isAbort(error)) return cancelled();
    if (isConnectionFailure(error)) return notRunning(this.endpoint, error);
    const status = (error as { status_code?: number }).status_code;
    const message = error instanceof Error ? error.message : String(error);
    if (model && (status === 404 || /not found/i.test(message))) return modelMissing(model, error);
    return new ModelError('server', `Ollama at ${this.endpoint} answered with an error: ${message}`, { cause: error });
  }
}

class TimeoutMarker extends Error {
  constructor() {
    super('timed out');
    this.name = 'TimeoutMarker';
  }
}

function toOllamaMessage(message: ChatMessage): OllamaMessage {
  return {
    role: message.role,
    content: message.content,
    tool_calls: message.toolCalls?.map((call) => ({ function: { name: call.name, arguments: call.arguments } })),
    tool_name: message.toolName,
  };
}

function toOllamaTool(tool: ToolSpec): OllamaTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema as OllamaTool['function']['parameters'] },
  };
}

/** `model_info` is typed as a Map but arrives as a plain JSON object. */
function toRecord(value: unknown): Record<string, unknown> {
  if (value instanceof Map) return Object.fromEntries(value);
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
}
