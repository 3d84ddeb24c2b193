import type { ChatChunk, ChatMessage, ChatModelPort } from '../llm/chatModel';
import { replyReserveFor, type RuntimeWindow, type SendOptions, type TurnModel } from './turnModel';

/** A laptop-sized window: Ollama's own default below 24 GiB of VRAM is 4k, which a memory-carrying prompt outgrows. */
export const defaultContextLength = 8192;

/**
 * Engram's own Ollama model in a turn: a real `system` message, and the same `num_ctx` on every request, chosen
 * from the setting, capped by the model's maximum, and lowered to what the server really allocated (`/api/ps`).
 * One window per model and session of use: Ollama reloads a model whenever `num_ctx` changes.
 */
export class OllamaTurnModel implements TurnModel {
  readonly vendor = 'ollama';
  readonly systemDelivery = 'system message' as const;
  private chosen: Promise<RuntimeWindow> | undefined;
  /** A model without tool support answers an offer of tools with an error: offer none. */
  private supportsTools = false;
  /** A model that lists `thinking` takes Ollama's `think` option; others answer it with an error. */
  private supportsThinking = false;

  constructor(
    private readonly port: ChatModelPort,
    readonly id: string,
    /** `engram.ollama.contextLength` or the CLI's `--context-length`. */
    private readonly wantedContextLength: number = defaultContextLength,
  ) {}

  get name(): string {
    return this.id;
  }

  window(): Promise<RuntimeWindow> {
    this.chosen ??= this.choose().catch((error: unknown) => {
      this.chosen = undefined;
      throw error;
    });
    return this.chosen;
  }

  private async choose(): Promise<RuntimeWindow> {
    const details = await this.port.describeModel(this.id);
    const maximum = details.contextLength;
    this.supportsTools = details.supportsTools;
    this.supportsThinking = details.supportsThinking ?? false;
    const requested = Math.max(512, Math.min(this.wantedContextLength, maximum ?? this.wantedContextLength));
    // Loading the model with the window we will use tells us what the server could really give.
    for await (const chunk of this.port.chat(this.id, [], { contextLength: requested })) void chunk;
    const allocated = await this.port.loadedContextLength?.(this.id).catch(() => undefined);
    const tokens = allocated && allocated < requested ? allocated : requested;
    const ofMaximum = maximum ? `; the model allows ${maximum.toLocaleString('en-US')}` : '';
    const why =
      allocated && allocated < requested
        ? `Ollama allocated ${allocated.toLocaleString('en-US')} of the ${requested.toLocaleString('en-US')} asked for (num_ctx); budgeted to what it allocated${ofMaximum}`
        : `num_ctx ${requested.toLocaleString('en-US')} sent with every request${ofMaximum}`;
    return { tokens, replyReserve: replyReserveFor(tokens), why };
  }

  async *send(messages: readonly ChatMessage[], options: SendOptions): AsyncIterable<ChatChunk> {
    const window = await this.window();
    yield* this.port.chat(this.id, messages, {
      tools: this.supportsTools && options.tools.length ? options.tools : undefined,
      contextLength: window.tokens,
      signal: options.signal,
      ...(this.supportsThinking ? { think: options.think ?? true } : {}),
    });
  }

  explain(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
  }
}
