import { truncateToTokens } from '../context/assemble';
import { toolResultCap } from '../context/budget';
import type { ContextBlock, RetrievalEntry } from '../context/contextReport';
import type { TokenCounter } from '../shared/tokenCounter';
import type { ChatMessage, ToolCallRequest, ToolSpec } from '../llm/chatModel';
import type { ToolOutcome } from './memoryTools';
import type { ToolChoice } from './toolChoice';
import type { ToolRunner, TurnModel, TurnToolContext } from './turnModel';

/** Tool rounds per turn at most: a small model that keeps calling tools must still answer. */
export const maxToolRounds = 4;

/** How a tool the user referenced was honoured, for the report. */
export type RequiredHow = 'run by Engram before the model' | 'called by the model' | 'not called by the model' | 'no such tool';

export interface ToolLoopResult {
  readonly reply: string;
  readonly blocks: readonly ContextBlock[];
  readonly retrieval: readonly RetrievalEntry[];
  /** The largest tool definitions sent in one request, in tokens. */
  readonly definitionTokens: number;
  readonly required: readonly { readonly name: string; readonly how: RequiredHow }[];
  /** What the runtime said it read of the last request (Ollama's `prompt_eval_count`), when it says. */
  readonly promptEvalCount?: number;
}

export interface ToolLoopInput {
  readonly messages: ChatMessage[];
  readonly model: TurnModel;
  readonly tools: ToolRunner;
  readonly choice: ToolChoice;
  readonly message: string;
  readonly onText: (text: string) => void;
  /** The model's thinking as it streams: progress to show, never part of the reply. */
  readonly onThinking?: (text: string) => void;
  /** What the tools may know of this turn (what the prompt already holds, its project). */
  readonly context?: TurnToolContext;
  readonly signal?: AbortSignal;
  readonly tokens: TokenCounter;
  /** Tokens of the budget still free after the assembled prompt. */
  readonly room: number;
  readonly budget: number;
}

/**
 * Sends the prompt and runs the tools the model calls, round after round, until it answers. A tool the user
 * referenced is honoured first: Engram runs it itself when its input follows from the message, otherwise the first
 * round offers only the referenced tools and asks the model to call one.
 */
export async function runToolLoop(input: ToolLoopInput): Promise<ToolLoopResult> {
  const { messages, model, tools, choice, tokens } = input;
  const blocks: ContextBlock[] = [];
  const retrieval: RetrievalEntry[] = [];
  const required = new Map<string, RequiredHow>(choice.missing.map((name) => [name, 'no such tool']));
  let room = input.room;
  let definitionTokens = 0;
  let reply = '';
  let promptEvalCount: number | undefined;

  const runCalls = async (calls: readonly ToolCallRequest[], byEngram = false): Promise<void> => {
    messages.push({ role: 'assistant', content: '', toolCalls: calls });
    for (const call of calls) {
      // Budgeted like any block: a tool that can (recall) fills the cap with whole items; any other is cut with a marker.
      // A tool result never takes more than a share of the budget, nor more than the room left: never on top of it.
      const cap = toolResultCap(input.budget, Math.max(Math.floor(room / 2), Math.min(room, 200)));
      const context = input.context ? { ...input.context, resultTokens: cap } : undefined;
      const outcome = await tools.run(call, input.signal, context).catch((failure: unknown): ToolOutcome => ({ text: `Error: ${messageOf(failure)}`, retrieval: [] }));
      const fit = truncateToTokens(outcome.text, cap, tokens);
      messages.push({ role: 'tool', toolName: call.name, content: fit.text });
      room -= fit.tokens + 4;
      const full = fit.cut ? tokens.count(outcome.text) : fit.tokens;
      const by = byEngram ? 'run by Engram for the tool you referenced' : 'fetched by the model during the turn';
      blocks.push({
        id: `tool.${call.name}.${blocks.length + 1}`,
        layer: 'L2',
        title: `${call.name}(${JSON.stringify(call.arguments).slice(0, 80)})`,
        state: fit.cut ? 'truncated' : 'included',
        tokens: fit.tokens,
        fullTokens: full,
        why: fit.cut ? `${by}; cut to ${cap} tokens of ${full}` : `${by}; result budget ${cap} tokens`,
        text: fit.text,
      });
      retrieval.push(...outcome.retrieval);
    }
  };

  const prefilled = choice.required.map((spec) => tools.prefill?.(spec.name, input.message)).filter((call): call is ToolCallRequest => !!call);
  for (const call of prefilled) required.set(call.name, 'run by Engram before the model');
  if (prefilled.length) await runCalls(prefilled, true);
  const pending = choice.required.filter((spec) => !required.has(spec.name));
  for (const spec of pending) required.set(spec.name, 'not called by the model');

  for (let round = 0; round <= maxToolRounds; round++) {
    const forced = round === 0 && pending.length > 0;
    const offered: readonly ToolSpec[] = round === maxToolRounds ? [] : forced ? pending : choice.offered;
    definitionTokens = Math.max(definitionTokens, offered.length ? tokens.count(JSON.stringify(offered)) : 0);
    const calls: ToolCallRequest[] = [];
    for await (const chunk of model.send(messages, { tools: offered, signal: input.signal, requireTool: forced })) {
      if (chunk.kind === 'text') {
        reply += chunk.text;
        input.onText(chunk.text);
      } else if (chunk.kind === 'thinking') input.onThinking?.(chunk.text);
      else if (chunk.kind === 'toolCall') calls.push(chunk.call);
      else if (chunk.kind === 'done' && chunk.promptTokens !== undefined) promptEvalCount = chunk.promptTokens;
    }
    if (calls.length === 0) break;
    for (const call of calls) if (required.get(call.name) === 'not called by the model') required.set(call.name, 'called by the model');
    await runCalls(calls);
  }
  return { reply, blocks, retrieval, definitionTokens, required: [...required].map(([name, how]) => ({ name, how })), promptEvalCount };
}

/** The line the last user message carries when the user referenced tools that the model itself must call. */
export function requiredToolsNote(choice: ToolChoice, tools: ToolRunner, message: string): string | undefined {
  const pending = choice.required.filter((spec) => !tools.prefill?.(spec.name, message)).map((spec) => spec.name);
  return pending.length ? `(The user attached the tool${pending.length > 1 ? 's' : ''} ${pending.join(', ')} to this message: call ${pending.length > 1 ? 'them' : 'it'} before you answer.)` : undefined;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
