import { randomUUID } from 'node:crypto';
import type { TurnRecord } from '../store/turnRepository';

/**
 * "Don't remember this, but …", "Off the record: …": the owner asked that these words not be kept. Such a turn is
 * used for the reply and for the rest of this conversation, but it never reaches the store (so no other
 * conversation, recall, summary, export or file on disk has it), and neither does the reply to it.
 */
const offTheRecord = /\b(?:do(?:n[’']?t| not) (?:remember|save|store|keep|record) (?:this|that|it|what i say)|off the record|not for (?:your )?memory)\b/i;

export function isOffTheRecord(text: string): boolean {
  return offTheRecord.test(text);
}

/** "Forget what I just said", "please forget my last message": the owner takes back the message before this one. */
const forgetLast = /^\s*(?:please\s+)?(?:forget|delete|erase)\s+(?:what i (?:just )?(?:said|wrote|told you)|my (?:last|previous) message|the last thing i (?:said|wrote)|that last message)\b[\s.!]*$/i;

export function isForgetLast(text: string): boolean {
  return forgetLast.test(text);
}

/** How long a quiet conversation keeps its off-the-record turns in this window: after that it has ended. */
const endedAfterMs = 2 * 60 * 60 * 1000;

interface HeldTurn extends TurnRecord {
  /** The seq of the last stored turn before it: where it sits among the stored ones. */
  readonly afterSeq: number;
}

/** Off-the-record turns, per conversation, in this process's memory only. */
export class OffTheRecordTurns {
  private readonly held = new Map<string, { turns: HeldTurn[]; touched: number }>();
  /** Orders held turns that follow the same stored one. */
  private counter = 0;

  constructor(private readonly now: () => number = () => Date.now()) {}

  /** Keeps a turn for this conversation's later prompts; returns it as a turn record that no store holds. */
  hold(sessionId: string, role: 'user' | 'assistant', text: string, tokens: number, afterSeq: number): TurnRecord {
    this.forgetEnded();
    const entry = this.held.get(sessionId) ?? { turns: [], touched: 0 };
    const turn: HeldTurn = { id: `off-record-${randomUUID()}`, sessionId, seq: afterSeq + 0.5 + ++this.counter / 1e9, role, text, at: new Date(this.now()).toISOString(), tokens, afterSeq };
    entry.turns.push(turn);
    entry.touched = this.now();
    this.held.set(sessionId, entry);
    return turn;
  }

  /** The stored turns with this conversation's held ones put back where they were said, oldest first. */
  interleave(sessionId: string, stored: readonly TurnRecord[]): TurnRecord[] {
    const held = this.held.get(sessionId)?.turns;
    if (!held?.length) return [...stored];
    const firstStored = stored[0]?.seq ?? Number.POSITIVE_INFINITY;
    const merged: TurnRecord[] = [...stored];
    for (const turn of held) {
      // Held turns older than the stored window the prompt read are older than what it shows: leave them out too.
      if (turn.afterSeq < firstStored - 1 && stored.length > 0) continue;
      merged.push(turn);
    }
    return merged.sort((a, b) => a.seq - b.seq || a.at.localeCompare(b.at));
  }

  has(sessionId: string): boolean {
    return (this.held.get(sessionId)?.turns.length ?? 0) > 0;
  }

  /** The conversation ended (forgotten, or quiet past the limit): its held words are dropped. */
  end(sessionId: string): void {
    this.held.delete(sessionId);
  }

  private forgetEnded(): void {
    const cutoff = this.now() - endedAfterMs;
    for (const [sessionId, entry] of this.held) if (entry.touched < cutoff) this.held.delete(sessionId);
  }
}
