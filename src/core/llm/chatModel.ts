/**
 * The model port: what the core needs from a chat model, independent of Ollama and of VS Code.
 * The Ollama implementation lives in ollamaChatModel.ts; tests may plug in their own.
 */

export type ChatRole = 'system' | 'user' | 'assistant' | 'tool';

/** A tool call the model asked for. `id` is ours: Ollama does not number its calls. */
export interface ToolCallRequest {
  readonly id: string;
  readonly name: string;
  readonly arguments: Record<string, unknown>;
}

export interface ChatMessage {
  readonly role: ChatRole;
  readonly content: string;
  /** Calls the assistant made in this message (role 'assistant' only). */
  readonly toolCalls?: readonly ToolCallRequest[];
  /** Which tool produced this message (role 'tool' only). */
  readonly toolName?: string;
}

/** A tool offered to the model, described by a JSON schema for its input. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: object;
}

/** One piece of a streamed reply. */
export type ChatChunk =
  | { readonly kind: 'text'; readonly text: string }
  /** A thinking model's reasoning (Ollama's `message.thinking`): progress to show, never the reply. */
  | { readonly kind: 'thinking'; readonly text: string }
  | { readonly kind: 'toolCall'; readonly call: ToolCallRequest }
  | { readonly kind: 'done'; readonly promptTokens?: number; readonly outputTokens?: number };

export interface ModelInfo {
  readonly name: string;
  readonly family: string;
  readonly parameterSize?: string;
  readonly quantization?: string;
}

export interface ModelDetails extends ModelInfo {
  /** The context window in tokens, when the server reports one. */
  readonly contextLength?: number;
  readonly supportsTools: boolean;
  /** The model lists the `thinking` capability: it takes the `think` option. */
  readonly supportsThinking?: boolean;
}

export interface ChatRequestOptions {
  readonly tools?: readonly ToolSpec[];
  /**
   * The context window the server should run the model with (Ollama's `options.num_ctx`). Without it a
   * real Ollama picks its own runtime window (4k on most laptops) and silently drops the oldest messages.
   */
  readonly contextLength?: number;
  /** Structured output: a JSON schema the reply must follow (Ollama's `format`), or 'json' for any JSON. */
  readonly format?: 'json' | object;
  /** Turn a thinking model's reasoning on or off (Ollama's `think`); only sent to models that list `thinking`. */
  readonly think?: boolean;
  /** Aborting stops the stream at the server, not just the reader. */
  readonly signal?: AbortSignal;
}

export interface ChatModelPort {
  /** Where the model runs, for messages a person reads. */
  readonly endpoint: string;
  listModels(): Promise<ModelInfo[]>;
  describeModel(name: string): Promise<ModelDetails>;
  chat(model: string, messages: readonly ChatMessage[], options?: ChatRequestOptions): AsyncIterable<ChatChunk>;
  /** The window the server actually allocated for a loaded model (Ollama's `/api/ps`), when it says. */
  loadedContextLength?(model: string): Promise<number | undefined>;
  /** One vector per text, from an embedding model. */
  embed(model: string, texts: readonly string[]): Promise<number[][]>;
}
