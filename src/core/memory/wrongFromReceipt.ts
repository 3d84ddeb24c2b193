import type { MemoryStore } from '../store/memoryStore';
import { findTurn, turnsOfSessionAfter, type TurnRecord } from '../store/turnRepository';
import type { Facts } from './facts';
import type { StatementRecord } from './statementRepository';

/** What a "Wrong" click did: the belief retired, and the reply that was its evidence (when it is still stored). */
export interface WrongOutcome {
  readonly retired: StatementRecord;
  readonly reply?: TurnRecord;
}

/**
 * The owner's one-click "Wrong" under a reply: retires a fact that reply's prompt carried. Like a correction it
 * retires (the owner said the belief is false) rather than lowering a confidence, and its audit quotes the reply it
 * shaped; the op names the reply's turn, so the trail leads back to the evidence.
 */
export function retireFromReceipt(store: MemoryStore, facts: Facts, statementId: string, userTurnId: string): WrongOutcome {
  const statement = facts.get(statementId);
  if (statement.status !== 'confirmed') throw new Error(`${statement.key} = ${statement.value} is ${statement.status} already`);
  const asked = store.read((db) => findTurn(db, userTurnId));
  const reply = asked ? store.read((db) => turnsOfSessionAfter(db, asked.sessionId, asked.seq)).find((turn) => turn.role === 'assistant') : undefined;
  const words = reply ? (reply.text.length > 160 ? `${reply.text.slice(0, 157)}…` : reply.text) : undefined;
  const reason = words
    ? `marked wrong by the owner under a reply it shaped; the assistant had said: “${words}”`
    : 'marked wrong by the owner under a reply it shaped (the reply is no longer stored)';
  return { retired: facts.retire(statementId, reason, reply?.id ?? asked?.id), reply };
}
