import type { StatementRecord } from './statementRepository';

/** The phrase that takes back what the last turn learned; three words, said in the chat. */
export const undoPhrase = 'undo last learned';

export function isUndoPhrase(text: string): boolean {
  return /^\s*undo last learned[\s.!]*$/i.test(text);
}

/** A yes or no typed in reply to the question Engram asked in this conversation. */
export function yesOrNo(text: string): 'yes' | 'no' | undefined {
  if (/^\s*(?:yes|yep|yeah|y|sure|correct|right)[\s.!]*$/i.test(text)) return 'yes';
  if (/^\s*(?:no|nope|n|wrong|not really)[\s.!]*$/i.test(text)) return 'no';
  return undefined;
}

const describe = (statement: StatementRecord): string => `${statement.key} = ${statement.value}`;

/** Said at the end of a reply whenever something was learned: what, and how to take it back. */
export function learnedAnnouncement(learned: readonly StatementRecord[]): string {
  return `**Learned:** ${learned.map(describe).join(', ')}. Say *${undoPhrase}* to take it back.`;
}

/** The one question per conversation about an inferred fact. */
export function questionAnnouncement(statement: StatementRecord): string {
  return `**Should I remember ${describe(statement)}?** (from your words: “${statement.sourceWords.slice(0, 120)}”)`;
}
