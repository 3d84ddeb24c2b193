import type { StatementRecord } from '../memory/statementRepository';
import type { TurnRecord } from '../store/turnRepository';
import type { BlockState, ContextBlock, RetrievalEntry } from './contextReport';
import type { TokenCounter } from '../shared/tokenCounter';

/** Shares of the budget for the variable L0 blocks; the conversation gets what is left. */
export interface BudgetShares {
  readonly profile: number;
  readonly behaviours: number;
  readonly summary: number;
}

export const defaultShares: BudgetShares = { profile: 0.15, behaviours: 0.05, summary: 0.1 };

export interface AssemblyInput {
  /** Identity and hard rules, from configuration. */
  readonly identity: string;
  /** Generated self-knowledge: the model, the tools registered, what memory holds. */
  readonly capabilities: string;
  /** Confirmed facts, best first. */
  readonly profile: readonly StatementRecord[];
  /** Behaviours the owner approved, newest first. */
  readonly behaviours?: readonly { readonly id: string; readonly text: string; readonly tokens: number }[];
  readonly summary?: { readonly sessionId: string; readonly text: string };
  /** This session's earlier turns, oldest first. */
  readonly recent: readonly TurnRecord[];
  readonly prompt: string;
  /** What exists but is not in this prompt, for the L1 lines. */
  readonly elsewhere: { readonly otherSessions: number; readonly otherTurns: number; readonly olderTurnsHere: number };
  readonly budget: number;
  readonly shares?: BudgetShares;
  readonly tokens: TokenCounter;
}

export interface AssembledPrompt {
  /** The opening instruction message: identity, capabilities, profile, behaviours, summary, L1 lines. */
  readonly system: string;
  /** The recent conversation as it goes into the prompt, oldest first. */
  readonly history: readonly { readonly role: 'user' | 'assistant'; readonly text: string }[];
  readonly prompt: string;
  readonly blocks: ContextBlock[];
  readonly retrieval: RetrievalEntry[];
}

const marker = (left: number): string => `\n[… ${left} tokens of this message not shown]`;

/** Cuts text to about `budget` tokens, with a visible marker saying how much was left out. */
export function truncateToTokens(text: string, budget: number, tokens: TokenCounter): { text: string; tokens: number; cut: boolean } {
  const full = tokens.count(text);
  if (full <= budget) return { text, tokens: full, cut: false };
  let keep = Math.max(0, Math.floor((text.length * budget) / full) - 40);
  let cutText = text.slice(0, keep) + marker(full - budget);
  while (keep > 0 && tokens.count(cutText) > budget) {
    keep = Math.floor(keep * 0.9);
    cutText = text.slice(0, keep) + marker(full - budget);
  }
  return { text: cutText, tokens: tokens.count(cutText), cut: true };
}

function block(id: string, layer: ContextBlock['layer'], title: string, state: BlockState, text: string, tokens: number, fullTokens: number, why: string): ContextBlock {
  return { id, layer, title, state, text, tokens, fullTokens, why };
}

/**
 * Builds the prompt in layers under a token budget. L0 always, in full where it fits its share; the recent
 * conversation filled newest-first to what remains (not a fixed tail); L1 one line per kind of memory left out,
 * naming the tool that fetches it. Token counts come from the rows (stored when written), so this is cheap.
 */
export function assemblePrompt(input: AssemblyInput): AssembledPrompt {
  const shares = input.shares ?? defaultShares;
  const t = input.tokens;
  const blocks: ContextBlock[] = [];
  const retrieval: RetrievalEntry[] = [];
  const parts: string[] = [];

  const identity = `${input.identity}\n\n${input.capabilities}`;
  const identityTokens = t.count(identity);
  blocks.push(block('identity', 'L0', 'Identity, rules and capabilities', 'included', identity, identityTokens, identityTokens, 'always in full'));
  parts.push(identity);

  const promptFit = truncateToTokens(input.prompt, Math.max(64, Math.floor(input.budget * 0.5)), t);
  let remaining = input.budget - identityTokens - promptFit.tokens;

  // Profile: confirmed facts, best first, as many as the share allows.
  const profileBudget = Math.floor(input.budget * shares.profile);
  const shown: StatementRecord[] = [];
  let profileTokens = 0;
  for (const fact of input.profile) {
    const cost = fact.tokens + 2;
    if (profileTokens + cost > profileBudget) break;
    shown.push(fact);
    profileTokens += cost;
  }
  const fullProfile = input.profile.reduce((sum, fact) => sum + fact.tokens + 2, 0);
  if (input.profile.length === 0) {
    blocks.push(block('profile', 'L0', 'Your profile (confirmed facts)', 'absent', '', 0, 0, 'no confirmed facts yet'));
  } else {
    const text = `What the user has confirmed about themselves (use it; never invent more):\n${shown.map((f) => `- ${f.key}: ${f.value}`).join('\n')}`;
    const state: BlockState = shown.length < input.profile.length ? 'truncated' : 'included';
    const why = state === 'included' ? `${shown.length} facts within the profile share (${profileBudget} tokens)` : `${input.profile.length - shown.length} facts beyond the profile share of ${profileBudget} tokens`;
    const tokens = t.count(text);
    blocks.push(block('profile', 'L0', 'Your profile (confirmed facts)', state, text, tokens, fullProfile, why));
    parts.push(text);
    remaining -= tokens;
    for (const fact of shown) retrieval.push({ kind: 'fact', memoryId: fact.id, via: 'prompt', label: `${fact.key} = ${fact.value}` });
  }

  const behaviours = input.behaviours ?? [];
  if (behaviours.length === 0) {
    blocks.push(block('behaviours', 'L0', 'Behaviours you approved', 'absent', '', 0, 0, 'no approved behaviours yet (they come from your corrections)'));
  } else {
    const share = Math.floor(input.budget * shares.behaviours);
    const kept: typeof behaviours[number][] = [];
    let cost = 0;
    for (const behaviour of behaviours) {
      if (cost + behaviour.tokens + 2 > share && kept.length > 0) break;
      kept.push(behaviour);
      cost += behaviour.tokens + 2;
    }
    const text = `Behaviours the user approved (follow them):\n${kept.map((b) => `- ${b.text}`).join('\n')}`;
    const tokens = t.count(text);
    const state: BlockState = kept.length < behaviours.length ? 'truncated' : 'included';
    blocks.push(block('behaviours', 'L0', 'Behaviours you approved', state, text, tokens, tokens, state === 'included' ? `${kept.length} approved` : `${behaviours.length - kept.length} beyond the share`));
    parts.push(text);
    remaining -= tokens;
    for (const behaviour of kept) retrieval.push({ kind: 'behavior', memoryId: behaviour.id, via: 'prompt', label: behaviour.text.slice(0, 80) });
  }
  blocks.push(block('active', 'L0', 'Active items', 'absent', '', 0, 0, 'no active items'));

  if (input.summary?.text) {
    const fit = truncateToTokens(input.summary.text, Math.floor(input.budget * shares.summary), t);
    const text = `Summary of this conversation so far:\n${fit.text}`;
    const tokens = t.count(text);
    blocks.push(block('summary', 'L0', 'Rolling summary', fit.cut ? 'truncated' : 'included', text, tokens, t.count(input.summary.text), fit.cut ? 'cut to its share' : 'in full'));
    parts.push(text);
    remaining -= tokens;
    retrieval.push({ kind: 'summary', memoryId: input.summary.sessionId, via: 'prompt', label: 'rolling summary' });
  } else {
    blocks.push(block('summary', 'L0', 'Rolling summary', 'absent', '', 0, 0, 'no summary yet for this conversation'));
  }

  // L1: one line per kind of memory that exists and is not here, naming the tool that fetches it.
  const l1: ContextBlock[] = [];
  const olderHere = input.elsewhere.olderTurnsHere;
  const lines: [string, string, boolean, string][] = [
    ['l1.sessions', `${input.elsewhere.otherSessions} earlier conversations (${input.elsewhere.otherTurns} turns) are not in this prompt: call recall_conversation to search them.`, input.elsewhere.otherSessions > 0, 'no earlier conversations'],
    ['l1.facts', `${input.profile.length - shown.length} more confirmed facts about the user are not in this prompt: call memory_search to find them.`, shown.length < input.profile.length, 'every confirmed fact is in the profile'],
  ];
  for (const [id, text, exists, whyNot] of lines) {
    if (!exists) {
      l1.push(block(id, 'L1', id === 'l1.sessions' ? 'Earlier conversations' : 'More facts', 'absent', '', 0, 0, whyNot));
      continue;
    }
    const tokens = t.count(text);
    l1.push(block(id, 'L1', id === 'l1.sessions' ? 'Earlier conversations' : 'More facts', 'included', text, tokens, tokens, 'exists in memory, not in the prompt'));
    parts.push(text);
    remaining -= tokens;
  }

  // The recent conversation, newest first, until the budget runs out.
  const history: { role: 'user' | 'assistant'; text: string }[] = [];
  let used = 0;
  let cutOne = false;
  for (let i = input.recent.length - 1; i >= 0; i--) {
    const turn = input.recent[i];
    const room = remaining - used;
    if (turn.tokens + 4 <= room) {
      history.unshift({ role: turn.role, text: turn.text });
      used += turn.tokens + 4;
      continue;
    }
    if (room > 64 && history.length === 0) {
      // An oversized message: cut, never dropped silently.
      const fit = truncateToTokens(turn.text, room - 4, t);
      history.unshift({ role: turn.role, text: fit.text });
      used += fit.tokens + 4;
      cutOne = true;
    }
    break;
  }
  const left = input.recent.length - history.length;
  const fullConversation = input.recent.reduce((sum, turn) => sum + turn.tokens + 4, 0);
  const conversationState: BlockState = input.recent.length === 0 ? 'absent' : left > 0 || cutOne || olderHere > 0 ? 'truncated' : 'included';
  const why =
    input.recent.length === 0
      ? 'a new conversation'
      : `${history.length} of ${input.recent.length + olderHere} turns fit ${Math.max(0, remaining)} tokens${cutOne ? '; the newest was cut with a marker' : ''}${left + olderHere > 0 ? `; ${left + olderHere} older turns left out` : ''}`;
  blocks.push(block('conversation', 'L0', 'Recent conversation', conversationState, history.map((h) => `${h.role}: ${h.text}`).join('\n'), used, fullConversation, why));
  blocks.push(block('prompt', 'L0', 'Your message', promptFit.cut ? 'truncated' : 'included', promptFit.text, promptFit.tokens, t.count(input.prompt), promptFit.cut ? 'cut to half the budget, with a marker' : 'in full'));
  blocks.push(...l1);
  return { system: parts.join('\n\n'), history, prompt: promptFit.text, blocks, retrieval };
}
