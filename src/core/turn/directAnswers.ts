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

/** "undo last learned", or a yes/no to this conversation's pending question: answered from memory, without the model. */
export function answerFromMemory(facts: Facts, prompt: string, sessionId: string): string | undefined {
  if (isUndoPhrase(prompt)) {
    const undone = facts.undoLastLearned(sessionId);
    return undone.length
      ? `Done: I no longer believe ${undone.map((s) => `${s.key} = ${s.value}`).join(', ')}.`
      : 'There is nothing learned in this conversation to take back.';
  }
  const answer = yesOrNo(prompt);
  const pending = answer && facts.list('proposed').find((s) => s.askedInSession === sessionId);
  if (!answer || !pending) return undefined;
  return answerQuestion(facts, pending, answer).message;
}
