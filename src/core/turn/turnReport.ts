import type { ContextBlock, ContextReport, RetrievalEntry } from '../context/contextReport';
import type { TokenCounter } from '../context/tokenCounter';
import type { ChatMessage } from '../llm/chatModel';
import type { RuntimeWindow, TurnModel } from './turnModel';

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
  const systemJoins = blocks.filter((block) => block.state !== 'absent' && block.id !== 'conversation' && block.id !== 'prompt').length - 1;
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
}): ContextReport {
  const tools: ContextBlock = {
    id: 'tools',
    layer: 'L2',
    title: 'Tool definitions offered',
    state: input.toolDefinitionTokens > 0 ? 'included' : 'absent',
    tokens: input.toolDefinitionTokens,
    fullTokens: input.toolDefinitionTokens,
    why: input.toolDefinitionTokens > 0 ? 'the tools the model may call, as their schemas' : 'no tools offered',
    text: '',
  };
  return {
    turnId: input.turnId,
    sessionId: input.sessionId,
    at: new Date().toISOString(),
    model: { id: input.model.id, name: input.model.name, vendor: input.model.vendor },
    window: input.window.tokens,
    windowWhy: input.window.why,
    systemDelivery: input.model.systemDelivery,
    budget: input.budget,
    totalTokens: input.totalTokens,
    blocks: [...input.blocks, tools],
    retrieval: input.retrieval,
    health: { fill: Math.round((input.totalTokens / input.budget) * 1000) / 1000, nextToGo: nextToGo(input.blocks) },
  };
}
