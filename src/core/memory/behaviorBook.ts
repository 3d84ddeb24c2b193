import { systemClock, type Clock } from '../shared/clock';
import { randomUUID } from 'node:crypto';
import type { TokenCounter } from '../shared/tokenCounter';
import type { MemoryStore } from '../store/memoryStore';
import { listBehaviors, type BehaviorRecord, type BehaviorStatus } from './behaviors';

/** The owner's approved behaviours and the lessons waiting for approval; every change journaled with a reason. */
export class BehaviorBook {
  constructor(
    private readonly store: MemoryStore,
    private readonly tokens: TokenCounter,
    private readonly now: Clock = systemClock,
  ) {}

  list(status?: BehaviorStatus): BehaviorRecord[] {
    return this.store.read((db) => listBehaviors(db, status));
  }

  get(id: string): BehaviorRecord {
    const found = this.list().find((behavior) => behavior.id === id);
    if (!found) throw new Error(`No behaviour ${id} in memory`);
    return found;
  }

  /** A lesson proposed from evidence; it reaches the prompt only once the owner approves it. */
  propose(text: string, evidence: string, from: { turnId?: string; statementId?: string } = {}): BehaviorRecord {
    // Similar lessons merge: "Check the user's current employer before naming it; they corrected "X" once" and the same
    // lesson about "Y" are one lesson, not two piling up in the review list.
    const gist = lessonGist(text);
    const same = this.list().find((behavior) => lessonGist(behavior.text) === gist && (behavior.status === 'proposed' || behavior.status === 'approved'));
    if (same) return same;
    const behaviorId = randomUUID();
    this.store.applyOperation({
      kind: 'behavior', action: 'propose', id: randomUUID(), behaviorId, at: this.now().toISOString(), reason: 'proposed from a correction',
      text, evidence, turnId: from.turnId, statementId: from.statementId, tokens: this.tokens.count(text),
    });
    return this.get(behaviorId);
  }

  decide(id: string, action: 'approve' | 'reject' | 'retire', reason: string): BehaviorRecord {
    this.store.applyOperation({ kind: 'behavior', action, id: randomUUID(), behaviorId: id, at: this.now().toISOString(), reason });
    return this.get(id);
  }
}

/** What a lesson asks, without the particulars after its first clause. */
function lessonGist(text: string): string {
  return text.split(';')[0].trim().toLowerCase().replace(/\s+/g, ' ');
}
