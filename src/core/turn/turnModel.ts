import { planBudget } from '../context/budget';
import type { ChatChunk, ChatMessage, ToolCallRequest, ToolSpec } from '../llm/chatModel';
import type { ToolOutcome } from './memoryTools';

/**
 * How the opening instructions (identity, profile, behaviours, summary) reached the model. A real Ollama keeps
 * system messages when it truncates and drops the oldest others, so only a system message is safe.
 */
export type SystemDelivery = 'system message' | 'first user message';

/** The window a turn's prompt must fit, and where the figure came from (shown in the context panel). */
export interface RuntimeWindow {
  /** Tokens the model runs with: input and reply together. */
  readonly tokens: number;
  /** Tokens kept free for the reply. */
  readonly replyReserve: number;
  /** In words: "num_ctx 8192 sent (engram.ollama.contextLength); the model allows 126,976". */
  readonly why: string;
}

/** What the turn engine needs from a chat model: Engram's own Ollama, a VS Code model, or a test's. */
export interface TurnModel {
  readonly id: string;
  readonly name: string;
  readonly vendor: string;
  readonly systemDelivery: SystemDelivery;
  /** The window to budget against. For Ollama it is the `num_ctx` every request of the turn sends. */
  window(): Promise<RuntimeWindow>;
  send(messages: readonly ChatMessage[], options: SendOptions): AsyncIterable<ChatChunk>;
  /** Turns a failure into what the person should read and do. */
  explain?(error: unknown): string;
}

/** What a tool may know of the turn that called it. */
export interface TurnToolContext {
  readonly sessionId: string;
  /** The turns this prompt already carries (the recent conversation and the message itself): recall skips them. */
  readonly inPrompt: ReadonlySet<string>;
  /** The chat's project scope (`project:<id>`): memory_search returns its facts beside the owner's, no other project's. */
  readonly projectScope?: string;
  /** Tokens this call's result may take (the tool loop's share of the budget); recall fills it with whole turns. */
  readonly resultTokens?: number;
}

export interface SendOptions {
  readonly tools: readonly ToolSpec[];
  readonly signal?: AbortSignal;
  /**
   * The model must call one of `tools` (the user referenced them). VS Code's vendors honour it; a local Ollama model
   * has no such mode, so the prompt asks for the call instead and the report says whether it came.
   */
  readonly requireTool?: boolean;
  /** Ask a thinking model to think (default) or not (a summary, a structured proposal): where the model supports it. */
  readonly think?: boolean;
}

/** The tools a turn may call: the memory tools, and in VS Code whatever else the editor offers. */
export interface ToolRunner {
  /** Every tool this runner can run now; the engine chooses which few to offer each turn. */
  specs(): readonly ToolSpec[];
  run(call: ToolCallRequest, signal?: AbortSignal, turn?: TurnToolContext): Promise<ToolOutcome>;
  /** Offered whenever they are available, whatever the message (Engram's memory tools). */
  readonly alwaysOffered?: readonly string[];
  /**
   * The call Engram makes itself when the user referenced a tool: a model cannot be made to call one, so a
   * read-only tool whose input follows from the message is run before the model, and its result is in the prompt.
   */
  prefill?(name: string, message: string): ToolCallRequest | undefined;
  /** Tools this runner knows of and will not run (a setting does not allow them), with why: for the report. */
  withheld?(): readonly { readonly name: string; readonly why: string }[];
}

export { replyReserveFor } from '../context/budget';

/**
 * The budget a prompt is assembled under, from the one budget planner: the window less the reply's room, less a
 * margin because Engram counts with cl100k and the model with its own tokenizer (see context/budget.ts).
 */
export function promptBudget(window: RuntimeWindow, correction?: number): number {
  return planBudget({ window: window.tokens, replyReserve: window.replyReserve, correction }).budget;
}

/**
 * A model that answers at once with what `answer` says (no network, no tokens of its own): for the benchmark, which
 * times Engram's own work around the model, and for evaluations that assemble prompts without sending them.
 */
export function answeringModel(name: string, answer: (messages: readonly ChatMessage[]) => string): TurnModel {
  return {
    id: name,
    name,
    vendor: name,
    systemDelivery: 'system message',
    window: async () => ({ tokens: 8192, replyReserve: 2048, why: `${name}'s fixed 8,192-token window` }),
    async *send(messages) {
      yield { kind: 'text', text: answer(messages) };
      yield { kind: 'done' };
    },
  };
}
