/**
 * How the stand-in counts and cuts a prompt, as a model runtime does: a tokenizer heavier than Engram's cl100k,
 * a chat template that adds tokens around every message and renders the tool schemas into the prompt, Ollama's
 * prompt builder dropping the oldest non-system messages, and then its runner cutting the front of a prompt still
 * too long (it keeps the first few tokens and discards what follows until the rest fits).
 */
import { cl100kTokenCounter } from '../../src/core/shared/tokenCounter';

/** How the stand-in's "model" counts tokens. */
export interface ModelTokenizer {
  /** The model's tokens per cl100k token (default 1.15: model tokenizers are often 5-20 % heavier). */
  readonly factor: number;
  /** Template tokens around each message (`<|im_start|>role\n … <|im_end|>\n`). */
  readonly perMessage: number;
  /** Template tokens around each tool the request offers (the `<tools>` preamble and markers). */
  readonly perTool: number;
  /** Tokens the runner keeps at the front when it cuts an overlong prompt (Ollama's `num_keep`). */
  readonly numKeep: number;
}

export const defaultTokenizer: ModelTokenizer = { factor: 1.15, perMessage: 6, perTool: 12, numKeep: 4 };

/** A chat message as the client sends it (`tool_calls`, `images`, … pass through untyped). */
export interface RuntimeMessage {
  role: string;
  content?: string;
  [field: string]: unknown;
}

/** What the stand-in did with one chat's messages, as a real Ollama's prompt builder and runner would. */
export interface Truncation {
  /** The runtime window the chat ran with: num_ctx (or the default), capped by the model and the server. */
  readonly window: number;
  /** Tokens of the prompt as sent, by the model's count: messages, template and tool definitions. */
  readonly sentTokens: number;
  /** Tokens of what the model got after truncation (what `prompt_eval_count` reports). */
  readonly keptTokens: number;
  /** Indices of the messages dropped, oldest first: never a system message, never the latest. */
  readonly dropped: readonly number[];
  /** The roles of the messages kept, in order. */
  readonly keptRoles: readonly string[];
  /** Tokens the runner cut from the front of the prompt after the first `numKeep` (0 when it fitted). */
  readonly cutTokens: number;
  /** Tokens of the tool definitions, as the template renders them. */
  readonly toolTokens: number;
}

/** The model's count of a text. */
export function modelTokens(text: string, tokenizer: ModelTokenizer = defaultTokenizer): number {
  return text ? Math.ceil(cl100kTokenCounter.count(text) * tokenizer.factor) : 0;
}

export function messageTokens(message: RuntimeMessage, tokenizer: ModelTokenizer = defaultTokenizer): number {
  return modelTokens(`${message.content ?? ''}${message.tool_calls ? JSON.stringify(message.tool_calls) : ''}`, tokenizer) + tokenizer.perMessage;
}

export function toolTokens(tools: readonly unknown[] | undefined, tokenizer: ModelTokenizer = defaultTokenizer): number {
  return tools?.length ? modelTokens(JSON.stringify(tools), tokenizer) + tokenizer.perTool * tools.length : 0;
}

/**
 * Ollama's chat prompt builder: system messages and the latest message always stay; the other messages are kept
 * newest first while they fit the window; the oldest go first. Tool definitions count against it too. What still
 * does not fit is cut by the runner from the front (after `numKeep` tokens), in place in `messages`' contents.
 */
export function truncateLikeOllama(request: { messages?: RuntimeMessage[]; tools?: unknown[] }, window: number, tokenizer: ModelTokenizer = defaultTokenizer): Truncation {
  const messages = request.messages ?? [];
  const tools = toolTokens(request.tools, tokenizer);
  const costs = messages.map((message) => messageTokens(message, tokenizer));
  const sentTokens = tools + costs.reduce((sum, cost) => sum + cost, 0);
  const last = messages.length - 1;
  let used = tools + costs.reduce((sum, cost, index) => (messages[index].role === 'system' || index === last ? sum + cost : sum), 0);
  const dropped: number[] = [];
  let full = false;
  for (let index = last - 1; index >= 0; index--) {
    if (messages[index].role === 'system') continue;
    if (!full && used + costs[index] <= window) used += costs[index];
    else {
      full = true;
      dropped.unshift(index);
    }
  }
  const kept = messages.filter((_, index) => !dropped.includes(index));
  const cutTokens = used > window ? cutFront(kept, used - window, tokenizer) : 0;
  return { window, sentTokens, keptTokens: used - cutTokens, dropped, keptRoles: kept.map((message) => message.role), cutTokens, toolTokens: tools };
}

/**
 * The runner's cut: keeps the first `numKeep` tokens of the prompt and discards `over` tokens after them, across
 * messages if one is not enough. Characters stand for tokens at each message's own ratio. Returns tokens cut.
 */
function cutFront(messages: RuntimeMessage[], over: number, tokenizer: ModelTokenizer): number {
  let left = over;
  let keep = tokenizer.numKeep;
  for (const message of messages) {
    if (left <= 0) break;
    const text = message.content ?? '';
    const tokens = modelTokens(text, tokenizer);
    if (tokens === 0) continue;
    const charsPerToken = text.length / tokens;
    const keepChars = Math.min(text.length, Math.round(keep * charsPerToken));
    keep = Math.max(0, keep - tokens);
    const removable = tokens - Math.ceil(keepChars / charsPerToken);
    const removed = Math.min(left, Math.max(0, removable));
    const removedChars = Math.round(removed * charsPerToken);
    message.content = text.slice(0, keepChars) + text.slice(keepChars + removedChars);
    left -= removed;
  }
  return over - Math.max(0, left);
}
