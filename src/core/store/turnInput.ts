import { randomUUID } from 'node:crypto';
import { redactSecrets, redactSecretsMany } from '../shared/secrets';
import type { TokenCounter } from '../shared/tokenCounter';
import type { TurnOp } from './operations';
import type { RecordTurnInput } from './storeTypes';
import { uncountedTokens, type TurnRecord } from './turnRepository';

const redactedLabels = new Map<string, string>();

/**
 * A session name, turn id or ref without its secrets. A lone surrogate cannot be stored as UTF-8: it becomes U+FFFD
 * here, where the caller can see it, rather than silently in SQLite (where a session id would then never be found
 * again). Labels repeat (every turn of a session names it), so the answers are kept for the next turn.
 */
export function redactLabel(label: string): string {
  const known = redactedLabels.get(label);
  if (known !== undefined) return known;
  const redacted = redactSecrets(label.toWellFormed());
  if (redactedLabels.size >= 4096) redactedLabels.clear();
  redactedLabels.set(label, redacted);
  return redacted;
}

/**
 * The labels of a batch of turns (ids, sessions, refs) without their secrets, scanned together: one by one they cost
 * 150-300 µs each, and an import's refs are all different.
 */
export function batchLabelCleaner(inputs: readonly RecordTurnInput[]): (label: string) => string {
  const labels = [...new Set(inputs.flatMap((input) => [input.id, input.sessionId, input.ref].filter((label): label is string => label !== undefined)))];
  const cleaned = redactSecretsMany(labels.map((label) => label.toWellFormed()));
  const byLabel = new Map(labels.map((label, index) => [label, cleaned[index]]));
  return (label) => byLabel.get(label) ?? redactLabel(label);
}

/** The operation a recorded turn becomes. `text` is already free of secrets; `clean` takes them out of its labels. */
export function turnOpOf(input: RecordTurnInput, text: string, tokens: number, now: Date, source: 'chat' | 'import', clean = redactLabel): TurnOp {
  return {
    kind: 'turn',
    id: input.id === undefined ? randomUUID() : clean(input.id),
    sessionId: clean(input.sessionId),
    role: input.role,
    text,
    at: input.at ?? now.toISOString(),
    ref: input.ref === undefined ? undefined : clean(input.ref),
    tokens,
    source: input.source ?? source,
  };
}

/** Turns as read for a prompt: a count an import left for later is made now. */
export function withTokens(turns: TurnRecord[], tokens: TokenCounter): TurnRecord[] {
  return turns.map((turn) => (turn.tokens === uncountedTokens ? { ...turn, tokens: tokens.count(turn.text) } : turn));
}
