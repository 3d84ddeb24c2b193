import type { StatementRecord } from '../memory/statementRepository';
import type { TurnRecord } from '../store/turnRepository';
import { fitAttachments, type Attachment } from './attachments';
import type { BlockState, ContextBlock, RetrievalEntry } from './contextReport';
import { projectBlock, type ProjectContext } from './projectBlock';
import { markStale, staleBlockText, voicedBeliefs, type RetiredBelief } from './staleBeliefs';
import type { TokenCounter } from '../shared/tokenCounter';

/** Shares of the budget for the variable L0 blocks; the conversation gets what is left. */
export interface BudgetShares {
  readonly profile: number;
  readonly behaviours: number;
  readonly summary: number;
  /** This project's confirmed facts ("This project" block). */
  readonly project: number;
  /** Code and text attached to the message: a coding question is about it, so it gets the largest share. */
  readonly attachments: number;
}

export const defaultShares: BudgetShares = { profile: 0.15, behaviours: 0.05, summary: 0.1, project: 0.1, attachments: 0.4 };

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
  /** How the summary's last roll went, in words (a failure, why, and when it is retried), for the summary row. */
  readonly summaryStatus?: string;
  /** This session's earlier turns, oldest first. */
  readonly recent: readonly TurnRecord[];
  readonly prompt: string;
  /** Files, selections and strings attached to this message, read by the host (never captured, never recorded). */
  readonly attachments?: readonly Attachment[];
  /** What exists but is not in this prompt, for the L1 lines. */
  readonly elsewhere: { readonly otherSessions: number; readonly otherTurns: number; readonly olderTurnsHere: number };
  readonly budget: number;
  readonly shares?: BudgetShares;
  readonly tokens: TokenCounter;
  /** Beliefs retired so far: where the conversation or the summary still says them, the prompt says they are out of date. */
  readonly retired?: readonly RetiredBelief[];
  /** The project of this workspace folder, when there is one: its confirmed facts whose citations hold, and the rest. */
  readonly project?: ProjectContext;
}

export interface AssembledPrompt {
  /** The opening instruction message: identity, capabilities, profile, behaviours, summary, L1 lines. */
  readonly system: string;
  /** The recent conversation as it goes into the prompt, oldest first (with each turn's id). */
  readonly history: readonly { readonly id: string; readonly role: 'user' | 'assistant'; readonly text: string }[];
  /** The last user message as sent: the attached code first, then the user's words. */
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

/** A summary the roll kept extractively (the model's answer was not usable): it says so in its own text. */
export const extractiveHeading = '## Not yet summarised (extractive: the first line of each turn, kept because the model did not summarise them)';

export function isExtractive(summary: string): boolean {
  return summary.includes(extractiveHeading);
}

/** "1 earlier conversation", "3 earlier conversations" (a plural that reads right when the count is one). */
function counted(value: number, noun: string): string {
  return `${value} ${noun}${value === 1 ? '' : 's'}`;
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

  const project = projectBlock(input.project, Math.floor(input.budget * (shares.project ?? defaultShares.project)), t);
  blocks.push(project.block);
  if (project.block.state !== 'absent') {
    parts.push(project.block.text);
    remaining -= project.block.tokens;
    retrieval.push(...project.retrieval);
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
    const how = `${fit.cut ? 'cut to its share' : 'in full'}${isExtractive(input.summary.text) ? '; partly extractive (first lines of turns the model did not summarise)' : ''}`;
    blocks.push(block('summary', 'L0', 'Rolling summary', fit.cut ? 'truncated' : 'included', text, tokens, t.count(input.summary.text), input.summaryStatus ? `${how}; ${input.summaryStatus}` : how));
    parts.push(text);
    remaining -= tokens;
    retrieval.push({ kind: 'summary', memoryId: input.summary.sessionId, via: 'prompt', label: 'rolling summary' });
  } else {
    blocks.push(block('summary', 'L0', 'Rolling summary', 'absent', '', 0, 0, `no summary yet for this conversation${input.summaryStatus ? `; ${input.summaryStatus}` : ''}`));
  }

  // Retired beliefs the conversation or the summary may still voice: their block is reserved before the conversation
  // is filled, then written for what the prompt really carries.
  const candidates = voicedBeliefs([...input.recent.map((turn) => turn.text), input.summary?.text ?? ''], input.retired ?? []);
  const staleReserve = candidates.length ? t.count(staleBlockText(candidates)) : 0;
  remaining -= staleReserve;
  const staleAt = parts.length;

  // L1: one line per kind of memory that exists and is not here, naming the tool that fetches it.
  const l1: ContextBlock[] = [];
  const olderHere = input.elsewhere.olderTurnsHere;
  const lines: [string, string, boolean, string][] = [
    ['l1.sessions', `${counted(input.elsewhere.otherSessions, 'earlier conversation')} (${counted(input.elsewhere.otherTurns, 'turn')}) ${input.elsewhere.otherSessions === 1 ? 'is' : 'are'} not in this prompt: call recall_conversation to search them.`, input.elsewhere.otherSessions > 0, 'no earlier conversations'],
    ['l1.facts', `${counted(input.profile.length - shown.length, 'more confirmed fact')} about the user ${input.profile.length - shown.length === 1 ? 'is' : 'are'} not in this prompt: call memory_search to find them.`, shown.length < input.profile.length, 'every confirmed fact is in the profile'],
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

  // The line naming this conversation's turns left out: reserved now (the count is known after the fill), so it fits.
  const olderLine = (out: number): string =>
    `${counted(out, 'earlier turn')} of this conversation ${out === 1 ? 'is' : 'are'} not in this prompt${input.summary?.text ? ' (the summary above covers the oldest)' : ''}: call recall_conversation to search ${out === 1 ? 'it' : 'them'}.`;
  const olderReserve = input.recent.length + olderHere > 0 ? t.count(olderLine(input.recent.length + olderHere)) : 0;
  remaining -= olderReserve;

  // Attached code before the conversation: the question is about it. What it does not use goes to the conversation.
  const attached = fitAttachments(input.attachments ?? [], Math.min(Math.floor(input.budget * shares.attachments), Math.max(0, remaining)), t);
  remaining -= attached.tokens;

  // The recent conversation, newest first, until the budget runs out.
  const history: { id: string; role: 'user' | 'assistant'; text: string }[] = [];
  let used = 0;
  let cutOne = false;
  let markedTurns = 0;
  for (let i = input.recent.length - 1; i >= 0; i--) {
    const turn = input.recent[i];
    const room = remaining - used;
    const stale = candidates.length ? markStale(turn.text, candidates) : { text: turn.text, marked: [] };
    const cost = turn.tokens + 4 + (stale.marked.length ? t.count(stale.text.slice(turn.text.length)) : 0);
    if (cost <= room) {
      history.unshift({ id: turn.id, role: turn.role, text: stale.text });
      used += cost;
      if (stale.marked.length) markedTurns++;
      continue;
    }
    if (room > 64 && history.length === 0) {
      // An oversized message: cut, never dropped silently.
      const fit = truncateToTokens(turn.text, room - 4, t);
      history.unshift({ id: turn.id, role: turn.role, text: fit.text });
      used += fit.tokens + 4;
      cutOne = true;
    }
    break;
  }
  // Whole exchanges only: an assistant turn whose user turn was cut would answer nothing the model can see.
  while (history.length > 1 && history[0].role === 'assistant') {
    const orphan = history.shift();
    const turn = input.recent.find((candidate) => candidate.id === orphan?.id);
    used -= (turn?.tokens ?? 0) + 4;
    if (turn && markStale(turn.text, candidates).marked.length) markedTurns--;
  }
  const left = input.recent.length - history.length;
  const fullConversation = input.recent.reduce((sum, turn) => sum + turn.tokens + 4, 0);
  const conversationState: BlockState = input.recent.length === 0 ? 'absent' : left > 0 || cutOne || olderHere > 0 ? 'truncated' : 'included';
  const why =
    input.recent.length === 0
      ? 'a new conversation'
      : `${history.length} of ${input.recent.length + olderHere} turns fit ${Math.max(0, remaining)} tokens${cutOne ? '; the newest was cut with a marker' : ''}${left + olderHere > 0 ? `; ${left + olderHere} older turns left out` : ''}`;
  blocks.push(block('conversation', 'L0', 'Recent conversation', conversationState, history.map((h) => `${h.role}: ${h.text}`).join('\n'), used, fullConversation, why));
  // What the prompt really carries of the retired beliefs: the marked turns and the summary.
  const voiced = voicedBeliefs([...history.map((h) => h.text), input.summary?.text ?? ''], candidates);
  if (voiced.length) {
    const text = staleBlockText(voiced);
    const tokens = t.count(text);
    parts.splice(staleAt, 0, text);
    const where = [markedTurns ? `${markedTurns} earlier turns (each marked)` : '', input.summary?.text && voicedBeliefs([input.summary.text], voiced).length ? 'the summary' : ''].filter(Boolean).join(' and ');
    blocks.push(block('stale', 'L0', 'No longer true', 'included', text, tokens, tokens, `${voiced.length} retired ${voiced.length === 1 ? 'belief is' : 'beliefs are'} still voiced by ${where}`));
  } else {
    blocks.push(block('stale', 'L0', 'No longer true', 'absent', '', 0, 0, (input.retired ?? []).length ? 'no retired belief is voiced in this prompt' : 'no retired beliefs'));
  }
  blocks.push(block('prompt', 'L0', 'Your message', promptFit.cut ? 'truncated' : 'included', promptFit.text, promptFit.tokens, t.count(input.prompt), promptFit.cut ? 'cut to half the budget, with a marker' : 'in full'));
  blocks.push(...attached.blocks);
  const out = left + olderHere;
  if (out > 0) {
    const text = olderLine(out);
    const tokens = t.count(text);
    parts.push(text);
    l1.unshift(block('l1.here', 'L1', 'Earlier in this conversation', 'included', text, tokens, tokens, `${counted(out, 'turn')} out of the prompt; recall_conversation reaches them`));
  } else {
    l1.unshift(block('l1.here', 'L1', 'Earlier in this conversation', 'absent', '', 0, 0, 'every turn of this conversation is in the prompt'));
  }
  blocks.push(...l1);
  const prompt = attached.text ? `${attached.text}\n\n${promptFit.text}` : promptFit.text;
  return { system: parts.join('\n\n'), history, prompt, blocks, retrieval };
}
