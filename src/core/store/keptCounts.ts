import type { Database } from 'sql.js';
import type { StoreOp, TurnOp } from './operations';
import { SessionTails } from './sessionTails';
import { countSessions, countTurns, type TurnRecord } from './turnRepository';

/**
 * What every prompt reads and the store keeps exact by its own writes instead of counting again: the total of turns
 * (COUNT(*) walks 100k rows in 0.7 ms), the number of sessions, and the newest turns of the sessions in use
 * (sessionTails.ts). Each is counted once, then kept; anything the store did not do itself sends it back to counting.
 */
export class KeptCounts {
  private turns: number | undefined;
  private sessions: number | undefined;
  readonly tails = new SessionTails();

  totalTurns(db: Database): number {
    this.turns ??= countTurns(db);
    return this.turns;
  }

  sessionCount(db: Database): number {
    this.sessions ??= countSessions(db);
    return this.sessions;
  }

  /** One of our own turns: one more turn, and (if it opened its session) perhaps one more session. */
  recorded(turn: TurnRecord): void {
    if (this.turns !== undefined) this.turns++;
    if (turn.seq === 1) this.sessions = undefined;
    this.tails.recorded(turn);
  }

  /** An operation of ours applied: one that adds or removes turns means counting again. */
  applied(kind: StoreOp['kind']): void {
    if (kind === 'turn' || kind === 'forgetSessions' || kind === 'coolSessions' || kind === 'forgetTurns' || kind === 'importSession') this.recount();
  }

  /** Another writer's batch: turns alone only add to the total (their sessions' tails are read again); else recount. */
  appliedFromOthers(ops: readonly StoreOp[], applied: number, removes: boolean): void {
    if (applied > 0) this.sessions = undefined;
    if (removes) {
      this.turns = undefined;
      this.tails.clear();
      return;
    }
    if (this.turns !== undefined) this.turns += applied;
    for (const op of ops) if (op.kind === 'turn') this.tails.drop((op as TurnOp).sessionId);
  }

  /** Everything is counted again (a reload, a removal). */
  recount(): void {
    this.turns = undefined;
    this.sessions = undefined;
    this.tails.clear();
  }
}
