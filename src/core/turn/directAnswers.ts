import { isUndoPhrase, yesOrNo } from '../memory/announce';
import type { Facts } from '../memory/facts';
import type { StatementRecord } from '../memory/statementRepository';

/** The owner's answer to "Should I remember …?", from the chat (typed or a button) or the palette. */
export function answerQuestion(facts: Facts, statement: StatementRecord, answer: 'yes' | 'no'): { readonly statement: StatementRecord; readonly message: string } {
  const label = `${statement.key} = ${statement.value}`;
  if (statement.status !== 'proposed') return { statement, message: `Already answered: ${label} is ${statement.status}.` };
  if (answer === 'yes') {
    return { statement: facts.approve(statement.id, 'approved by the owner when asked in the chat'), message: `Thanks, I'll remember ${label}.` };
  }
  return { statement: facts.reject(statement.id, 'rejected by the owner when asked in the chat'), message: `All right, I won't remember ${label}.` };
}

/** A question asked this long ago can still be answered from a conversation that lost track of its own (a reload). */
const questionLifetimeMs = 24 * 60 * 60 * 1000;

/**
 * "undo last learned", or a yes/no to this conversation's pending question: answered from memory, without the model.
 * A bare yes/no that opens a conversation answers the last question asked anywhere in the past day: after a reload the
 * chat may not tell Engram which conversation it continues, and the question was the last thing Engram said.
 */
export function answerFromMemory(facts: Facts, prompt: string, sessionId: string, options: { firstTurn?: boolean; now?: Date } = {}): string | undefined {
  if (isUndoPhrase(prompt)) {
    const undone = facts.undoLastLearned(sessionId);
    return undone.length
      ? `Done: I no longer believe ${undone.map((s) => `${s.key} = ${s.value}`).join(', ')}.`
      : 'There is nothing learned in this conversation to take back.';
  }
  const answer = yesOrNo(prompt);
  if (!answer) return undefined;
  const asked = facts.list('proposed').filter((s) => s.askedInSession);
  const since = (options.now ?? new Date()).getTime() - questionLifetimeMs;
  const pending =
    asked.find((s) => s.askedInSession === sessionId) ??
    (options.firstTurn ? asked.filter((s) => Date.parse(s.updatedAt) >= since).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0] : undefined);
  if (!pending) return undefined;
  return answerQuestion(facts, pending, answer).message;
}
