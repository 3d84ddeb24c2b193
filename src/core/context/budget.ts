/**
 * The one budget of a request to a model: the window split, once, among the reply, a margin for the difference
 * between Engram's token count and the model's, the tool definitions, room for tool results, the message framing,
 * and the prompt's own blocks. The chat prompt, the tool loop, the summary roll and recall all take their figures
 * from a plan made here, so no block comes on top of another's budget.
 */

/** Room for the reply inside a window: a quarter of it, at most 4k tokens. */
export function replyReserveFor(window: number): number {
  return Math.min(4096, Math.floor(window / 4));
}

/** Engram counts with cl100k; a model's tokenizer and template count more. Without a measure, assume up to a tenth. */
const unmeasuredMargin = 0.1;
/** Once the runtime's own count was seen, the learned ratio covers the tokenizer: a little is kept for drift. */
const measuredMargin = 0.04;
/** Tokens kept for each message's role markers and the joins between blocks (the framing row of the report). */
export const framingAllowance = 64;

export interface BudgetRequest {
  /** Tokens the model runs with, input and reply together. */
  readonly window: number;
  /** Tokens kept free for the reply. */
  readonly replyReserve: number;
  /** Tokens of the tool definitions this request offers (0 for none). */
  readonly toolDefinitions?: number;
  /** Share of the prompt kept for results the tools return during the turn (0 when no tool is offered). */
  readonly toolResultShare?: number;
  /**
   * The model's count over Engram's, learned from the runtime's own `prompt_eval_count` (see ModelCalibration).
   * Undefined until measured: then a tenth is kept instead.
   */
  readonly correction?: number;
}

export interface BudgetPlan {
  readonly window: number;
  readonly replyReserve: number;
  /** Kept for tokenizer error: window − reply reserve − budget. */
  readonly margin: number;
  /** The correction the margin was planned with (1 when none was learned). */
  readonly correction: number;
  /** All the prompt may take, in Engram's count: every row of the report together stays within it. */
  readonly budget: number;
  readonly toolDefinitions: number;
  /** Room kept for tool results fetched during the turn. */
  readonly toolResults: number;
  readonly framing: number;
  /** What the assembled blocks (system text, profile, …, recent turns, the message) may take. */
  readonly blocks: number;
}

/** Plans one request: see the file comment. Never returns a negative share. */
export function planBudget(request: BudgetRequest): BudgetPlan {
  const correction = request.correction && request.correction > 0 ? Math.max(1, request.correction) : 1;
  const margin = request.correction ? measuredMargin : unmeasuredMargin;
  const input = Math.max(0, request.window - request.replyReserve);
  const budget = Math.max(256, Math.floor(input / (correction * (1 + margin))));
  const toolDefinitions = Math.min(request.toolDefinitions ?? 0, Math.floor(budget * 0.4));
  const afterTools = Math.max(0, budget - toolDefinitions - framingAllowance);
  const toolResults = request.toolDefinitions ? Math.floor(afterTools * (request.toolResultShare ?? 0.15)) : 0;
  return {
    window: request.window,
    replyReserve: request.replyReserve,
    margin: Math.max(0, input - budget),
    correction,
    budget,
    toolDefinitions,
    toolResults,
    framing: framingAllowance,
    blocks: Math.max(0, afterTools - toolResults),
  };
}

/**
 * The most one tool result may take: a share of the budget, never more than the room still free. Recall and any
 * other tool read their result size from here, so a result cannot push the prompt past its budget.
 */
export function toolResultCap(budget: number, room: number, share = 0.3): number {
  return Math.max(0, Math.min(room, Math.floor(budget * share)));
}

/** The runtime's count of one prompt beside Engram's estimate, and whether the turn is flagged. */
export interface RuntimeCheck {
  /** Tokens the runtime says the model read (Ollama's `prompt_eval_count`). */
  readonly counted: number;
  /** Engram's estimate of the same request. */
  readonly estimate: number;
  readonly window: number;
  /** The margin the budget kept for tokenizer error. */
  readonly margin: number;
  readonly flagged: boolean;
  readonly why: string;
}

const numberFormat = new Intl.NumberFormat('en-US');
const n = (value: number): string => numberFormat.format(Math.round(value));

/**
 * Flags a request the runtime counted past the window (its runner cut the front), up to the window (it filled it:
 * a cut is likely), or past the estimate by more than the margin the budget kept (the budget was too generous).
 */
export function checkRuntime(counted: number, estimate: number, plan: Pick<BudgetPlan, 'window' | 'margin'>): RuntimeCheck {
  const base = { counted, estimate, window: plan.window, margin: plan.margin };
  if (counted > plan.window) return { ...base, flagged: true, why: `the model counted ${n(counted)} tokens, more than its ${n(plan.window)}-token window: the runtime cut the front of the prompt` };
  if (counted >= plan.window) return { ...base, flagged: true, why: `the model counted ${n(counted)} tokens, its whole window: the runtime likely cut the front of the prompt` };
  if (counted - estimate > plan.margin) return { ...base, flagged: true, why: `the model counted ${n(counted)} tokens, ${n(counted - estimate)} more than Engram's estimate of ${n(estimate)} (the margin kept was ${n(plan.margin)}); the next turns budget for it` };
  return { ...base, flagged: false, why: `the model counted ${n(counted)} tokens; Engram estimated ${n(estimate)}` };
}

/**
 * The model's count over Engram's, per model, learned from each turn's runtime count and kept in memory for the
 * life of the process: it rises at once when the model counts more, and eases down slowly when it counts less.
 */
export class ModelCalibration {
  private readonly ratios = new Map<string, number>();

  correction(modelId: string): number | undefined {
    return this.ratios.get(modelId);
  }

  /** Learns from one request; a prompt the runtime cut (it counted the whole window) gives a lower bound only. */
  observe(modelId: string, counted: number, estimate: number, window: number): number | undefined {
    if (!(counted > 0 && estimate > 0)) return this.ratios.get(modelId);
    const observed = counted / estimate;
    const known = this.ratios.get(modelId);
    const cut = counted >= window;
    const next = cut
      ? Math.max(observed, known ?? 1 + unmeasuredMargin) * (1 + measuredMargin)
      : known === undefined ? observed : Math.max(observed, known * 0.9 + observed * 0.1);
    this.ratios.set(modelId, Math.round(next * 1000) / 1000);
    return this.ratios.get(modelId);
  }
}
