/**
 * What one prompt carried: every block, its layer, its tokens, and whether it was included, truncated or
 * left out, and why. Kept per assistant turn, shown in the context panel, printed by `engram context`.
 */

/** L0: always in the prompt, in full. L1: one line per kind of memory left out, naming its tool. L2: fetched by tools. */
export type ContextLayer = 'L0' | 'L1' | 'L2';

export type BlockState = 'included' | 'truncated' | 'absent';

export interface ContextBlock {
  /** Stable across turns, e.g. "identity", "profile", "conversation", "l1.sessions", "tool.recall_conversation.1". */
  readonly id: string;
  readonly layer: ContextLayer;
  readonly title: string;
  readonly state: BlockState;
  /** Tokens this block occupies in the prompt (0 when absent). */
  readonly tokens: number;
  /** Tokens it would have taken whole (for truncated blocks), else equal to `tokens`. */
  readonly fullTokens: number;
  /** Why it is in, cut, or out: "budget 1,200 of 6,144", "no approved behaviours yet", … */
  readonly why: string;
  /** The text as it went into the prompt; memory text, untrusted: escape it wherever it is shown. */
  readonly text: string;
}

import type { BudgetPlan, RuntimeCheck } from './budget';

/**
 * One memory that reached a model: injected in the prompt, returned by a tool in a turn (`tool:<name>`), or
 * returned to another agent over MCP (`mcp:<client>:<tool>`).
 */
export interface RetrievalEntry {
  readonly kind: 'fact' | 'behavior' | 'summary' | 'turn';
  readonly memoryId: string;
  readonly via: 'prompt' | `tool:${string}` | `mcp:${string}`;
  readonly label: string;
}

export interface ContextReport {
  readonly turnId: string;
  readonly sessionId: string;
  readonly at: string;
  readonly model: { readonly id: string; readonly name: string; readonly vendor: string };
  /** The window the model runs with, in tokens: for Ollama the `num_ctx` every request of the turn sent. */
  readonly window: number;
  /** Where that figure came from, in words ("num_ctx 8,192 sent with every request; the model allows 126,976"). */
  readonly windowWhy?: string;
  /** How the opening instructions reached the model: a real system message, or (other vendors) the first user message. */
  readonly systemDelivery?: 'system message' | 'first user message';
  /** The budget the prompt was assembled under (the window less room for the reply and a tokenizer margin). */
  readonly budget: number;
  /** The final prompt recounted, tool results included. */
  readonly totalTokens: number;
  readonly blocks: readonly ContextBlock[];
  readonly retrieval: readonly RetrievalEntry[];
  /** Which tools this turn offered and why, which the user required and how each was honoured, which were left out. */
  readonly tools?: TurnTools;
  /** How the window was split beside the budget: the reply's room, the tokenizer margin, the learned correction. */
  readonly plan?: Pick<BudgetPlan, 'replyReserve' | 'margin' | 'correction' | 'toolResults'>;
  /** The runtime's own count of the last request beside Engram's estimate, and whether the turn is flagged. */
  readonly runtime?: RuntimeCheck;
  /** Context health: how full the budget is, and what would be dropped next as the conversation grows. */
  readonly health: { readonly fill: number; readonly nextToGo: string };
}

/** The tools of one turn, as the context panel and the CLI show them. */
export interface TurnTools {
  readonly offered: readonly { readonly name: string; readonly why: string }[];
  /** Tools the user referenced with a chip, and what happened: run by Engram, called by the model, or not. */
  readonly required: readonly { readonly name: string; readonly how: string }[];
  readonly left: readonly { readonly name: string; readonly why: string }[];
}
