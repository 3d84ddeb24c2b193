import { isUndoPhrase, yesOrNo } from '../memory/announce';
import type { Facts } from '../memory/facts';
import type { StatementRecord } from '../memory/statementRepository';

/** The owner's answer to "Should I remember …?", from the chat (typed or a button) or the palette. */
export function answerQuestion(facts: Facts, statement: StatementRecord, answer: 'yes' | 'no'): { readonly statement: StatementRecord; readonly message: string } {
  const label = `${statement.key} = ${statement.value}`;
  if (statement.status !== 'proposed') return { statement, message: `Already answered: ${label} is ${statement.status}.` };
  if (answer === 'yes') {
    // "learned:" like a tier-A fact: "undo last learned" takes it back as it takes back what a turn learned.
    return { statement: facts.approve(statement.id, 'learned: approved by the owner when asked in the chat'), message: `Thanks, I'll remember ${label}.` };
  }
  return { statement: facts.reject(statement.id, 'rejected by the owner when asked in the chat'), message: `All right, I won't remember ${label}.` };
}

/** A question asked this long ago can still be answered from a conversation that lost track of its own (a reload). */
const questionLifetimeMs = 24 * 60 * 60 * 1000;

/** A message answered without the model: the reply, and what it confirmed (announced with its Undo, as any learning is). */
export interface DirectAnswer {
  readonly text: string;
  readonly learned: readonly StatementRecord[];
}

/**
 * "undo last learned", or a yes/no to this conversation's pending question, about the owner or about the project:
 * answered from memory, without the model. A bare yes/no that opens a conversation answers the last question asked
 * anywhere in the past day: after a reload the chat may not tell Engram which conversation it continues, and the
 * question was the last thing Engram said.
 */
export function answerFromMemory(facts: Facts, prompt: string, sessionId: string, options: { firstTurn?: boolean; now?: Date } = {}): DirectAnswer | undefined {
  if (isUndoPhrase(prompt)) {
    const undone = facts.undoLastLearned(sessionId);
    const text = undone.length
      ? `Done: I no longer believe ${undone.map((s) => `${s.key} = ${s.value}`).join(', ')}.`
      : 'There is nothing learned in this conversation to take back.';
    return { text, learned: [] };
  }
  const answer = yesOrNo(prompt);
  if (!answer) return undefined;
  const asked = facts.pendingQuestions();
  const since = (options.now ?? new Date()).getTime() - questionLifetimeMs;
  const pending =
    asked.find((s) => s.askedInSession === sessionId) ??
    (options.firstTurn ? asked.find((s) => Date.parse(s.updatedAt) >= since) : undefined);
  if (!pending) return undefined;
  const answered = answerQuestion(facts, pending, answer);
  return { text: answered.message, learned: answered.statement.status === 'confirmed' ? [answered.statement] : [] };
}
