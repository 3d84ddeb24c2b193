import { randomUUID } from 'node:crypto';
import type { TokenCounter } from '../shared/tokenCounter';
import type { TurnOp } from './operations';
import type { RecordTurnInput } from './storeTypes';
import { uncountedTokens, type TurnRecord } from './turnRepository';

/**
 * The operation a recorded turn becomes. `text` is already free of secrets. A lone surrogate cannot be stored as
 * UTF-8: it becomes U+FFFD here, where the caller can see it, rather than silently in SQLite (where a session id
 * would then never be found again).
 */
export function turnOpOf(input: RecordTurnInput, text: string, tokens: number, now: Date, source: 'chat' | 'import'): TurnOp {
  return {
    kind: 'turn',
    id: input.id ?? randomUUID(),
    sessionId: input.sessionId.toWellFormed(),
    role: input.role,
    text,
    at: input.at ?? now.toISOString(),
    ref: input.ref,
    tokens,
    source: input.source ?? source,
  };
}

/** Turns as read for a prompt: a count an import left for later is made now. */
export function withTokens(turns: TurnRecord[], tokens: TokenCounter): TurnRecord[] {
  return turns.map((turn) => (turn.tokens === uncountedTokens ? { ...turn, tokens: tokens.count(turn.text) } : turn));
}
