import type { Facts, TurnCapture } from '../memory/facts';
import type { StatementRecord } from '../memory/statementRepository';

/**
 * "I left Northwind last month, remember? I'm at Calico now.": the new value said in the same breath fills the slot the
 * correction just emptied. A first-person proposal of that key from this very turn is confirmed (and announced with its
 * undo); without one, nothing changes and capture's own question stands.
 */
export function fillCorrectedSlot(facts: Facts, capture: TurnCapture, retired: StatementRecord): TurnCapture {
  // Tier B is a first-person statement in a weaker shape ("I'm at Calico now"); tier C, a guess, still waits for review.
  const candidate = [capture.question, ...capture.queued].find(
    (statement) => statement?.key === retired.key && statement.tier === 'B' && statement.value.toLowerCase() !== retired.value.toLowerCase(),
  );
  if (!candidate) return capture;
  const confirmed = facts.approve(candidate.id, `confirmed with the correction that retired ${retired.key} = ${retired.value}, from the owner's words in the same turn`);
  return {
    ...capture,
    learned: [...capture.learned, confirmed],
    question: capture.question?.id === candidate.id ? undefined : capture.question,
    queued: capture.queued.filter((statement) => statement.id !== candidate.id),
  };
}

