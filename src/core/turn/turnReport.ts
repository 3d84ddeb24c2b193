import type { BudgetPlan, RuntimeCheck } from '../context/budget';
import type { ContextBlock, ContextReport, RetrievalEntry, TurnTools } from '../context/contextReport';
import type { TokenCounter } from '../shared/tokenCounter';
import type { ChatMessage } from '../llm/chatModel';
import type { ToolChoice } from './toolChoice';
import type { RequiredHow } from './toolLoop';
import type { RuntimeWindow, TurnModel } from './turnModel';

/** Blocks that travel in the last user message, not the system message (they add no join there). */
const inUserMessage = (id: string): boolean => id === 'conversation' || id === 'prompt' || id === 'attachments' || id.startsWith('attachment.') || id === 'tools.required';

/** Tokens one message costs as sent: its text, its tool calls, and a few for the role markers around it. */
export function messageTokens(message: ChatMessage, tokens: TokenCounter): number {
  const calls = message.toolCalls?.length ? JSON.stringify(message.toolCalls.map((call) => ({ name: call.name, arguments: call.arguments }))) : '';
  return tokens.count(message.content + calls) + 4;
}

/**
 * The tokens of the prompt as sent, from the blocks' own counts (each row's tokens were counted when it was written,
 * so nothing is recounted): every included block, the tool definitions, the tool calls, and each message's
 * role markers. Re-tokenizing the whole prompt instead cost a few ms a turn for the same figure within a few tokens.
 */
export function sentTokens(messages: readonly ChatMessage[], historyMessages: number, blocks: readonly ContextBlock[], toolBlocks: readonly ContextBlock[], toolDefinitions: number, tokens: TokenCounter): number {
  const blockTokens = [...blocks, ...toolBlocks].reduce((sum, block) => sum + block.tokens, 0);
  // The conversation block already counts four per turn; the others are the system, the prompt and the tool messages.
  const otherMessages = messages.length - historyMessages;
  const calls = messages.reduce((sum, message) => sum + (message.toolCalls?.length ? messageTokens({ ...message, content: '' }, tokens) : 0), 0);
  const systemJoins = blocks.filter((block) => block.state !== 'absent' && !inUserMessage(block.id)).length - 1;
  return blockTokens + toolDefinitions + calls + 4 * otherMessages + Math.max(0, systemJoins);
}

/** What the next turns would push out first: the oldest conversation turns, then the summary, then profile facts. */
function nextToGo(blocks: readonly ContextBlock[]): string {
  const conversation = blocks.find((block) => block.id === 'conversation');
  if (conversation && conversation.state !== 'absent') return 'the oldest turns of the recent conversation';
  if (blocks.find((block) => block.id === 'summary')?.state === 'included') return 'the end of the rolling summary';
  return 'nothing yet: the prompt is far from its budget';
}

/** The turn's context report, counted over exactly what was sent: messages, tool results and tool definitions. */
export function buildReport(input: {
  readonly turnId: string;
  readonly sessionId: string;
  readonly model: TurnModel;
  readonly window: RuntimeWindow;
  readonly budget: number;
  readonly blocks: readonly ContextBlock[];
  readonly toolDefinitionTokens: number;
  readonly retrieval: readonly RetrievalEntry[];
  readonly totalTokens: number;
  readonly tools?: TurnTools;
  readonly plan?: BudgetPlan;
  readonly runtime?: RuntimeCheck;
}): ContextReport {
  const offered = input.tools?.offered.map((tool) => tool.name) ?? [];
  const tools: ContextBlock = {
    id: 'tools',
    layer: 'L2',
    title: 'Tool definitions offered',
    state: input.toolDefinitionTokens > 0 ? 'included' : 'absent',
    tokens: input.toolDefinitionTokens,
    fullTokens: input.toolDefinitionTokens,
    why: input.toolDefinitionTokens > 0 ? `the tools the model may call, as their schemas${offered.length ? `: ${offered.join(', ')}` : ''}${describeLeft(input.tools)}` : 'no tools offered',
    text: '',
  };
  // The role markers and joins: a row of their own, so the panel's rows add up to its total.
  const framingTokens = Math.max(0, input.totalTokens - input.blocks.reduce((sum, block) => sum + block.tokens, 0) - input.toolDefinitionTokens);
  const framing: ContextBlock = { id: 'framing', layer: 'L0', title: 'Message framing', state: framingTokens > 0 ? 'included' : 'absent', tokens: framingTokens, fullTokens: framingTokens, why: 'role markers around each message, tool calls, and the joins between blocks', text: '' };
  const totalTokens = input.blocks.reduce((sum, block) => sum + block.tokens, 0) + input.toolDefinitionTokens + framingTokens;
  return {
    turnId: input.turnId,
    sessionId: input.sessionId,
    at: new Date().toISOString(),
    model: { id: input.model.id, name: input.model.name, vendor: input.model.vendor },
    window: input.window.tokens,
    windowWhy: input.window.why,
    systemDelivery: input.model.systemDelivery,
    budget: input.budget,
    totalTokens,
    blocks: [...input.blocks, tools, framing],
    ...(input.plan ? { plan: { replyReserve: input.plan.replyReserve, margin: input.plan.margin, correction: input.plan.correction, toolResults: input.plan.toolResults } } : {}),
    ...(input.runtime ? { runtime: input.runtime } : {}),
    retrieval: input.retrieval,
    ...(input.tools ? { tools: input.tools } : {}),
    health: { fill: Math.round((totalTokens / input.budget) * 1000) / 1000, nextToGo: nextToGo(input.blocks) },
  };
}

/** "; 3 more not offered (beyond the cap of 8)" for the tools block's why. */
function describeLeft(tools: TurnTools | undefined): string {
  if (!tools?.left.length) return '';
  return `; ${tools.left.length} more not offered (${[...new Set(tools.left.map((tool) => tool.why))].join('; ')})`;
}

/** The turn's tools for the report: what was offered and why, the required ones and how each went, what was left. */
export function toolsOfTurn(choice: ToolChoice, required: readonly { readonly name: string; readonly how: RequiredHow }[], withheld: readonly { readonly name: string; readonly why: string }[]): TurnTools {
  return {
    offered: choice.offered.map((spec) => ({ name: spec.name, why: choice.reasons.get(spec.name) ?? '' })),
    required: required.map(({ name, how }) => ({ name, how })),
    left: [...choice.left, ...withheld],
  };
}
