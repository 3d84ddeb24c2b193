import type { TurnRecord } from './turnRepository';

/** A tail holds at most this many turns: a prompt reads 201 at most, and a longer tail would only cost memory. */
const tailTurns = 256;
/** Sessions kept: the ones this window is talking in now. */
const tailSessions = 8;
/** A first read fetches at least this many, so the small reads of a turn (1, 2, 3 turns) and the prompt's share one. */
const firstRead = 32;

interface Tail {
  /** The newest turns of the session, oldest first, as the database holds them. */
  turns: TurnRecord[];
  /** Whether `turns` is the whole session (fewer turns than were asked for came back). */
  complete: boolean;
  /** The session's turn count, once someone asked for it. */
  count?: number;
}

/**
 * The newest turns of the sessions this window talks in, as the database holds them. One chat turn read the same
 * recent turns five times (the first-turn check, corrections, the prompt, the summary's pending turns), 1 ms of
 * every turn at 100k turns. The store keeps a tail exact: its own recorded turns are appended (a new turn always
 * takes the session's next seq), and a tail is dropped when anything else changes its session's turns (another
 * writer's turns, a removal, a reload).
 */
export class SessionTails {
  private readonly tails = new Map<string, Tail>();

  /** The last `limit` turns, oldest first; `read` fetches the last N from the database when the tail is short. */
  recent(sessionId: string, limit: number, read: (limit: number) => TurnRecord[]): TurnRecord[] {
    if (limit <= 0 || !sessionId.isWellFormed()) return read(limit);
    let tail = this.tails.get(sessionId);
    if (!tail || (!tail.complete && tail.turns.length < limit)) {
      if (limit > tailTurns) return read(limit);
      const wanted = Math.max(limit, firstRead);
      const turns = read(wanted);
      tail = { turns, complete: turns.length < wanted, count: tail?.count };
    }
    this.touch(sessionId, tail);
    return tail.turns.slice(-limit);
  }

  /** The session's turns after `afterSeq`, oldest first, when the tail reaches back that far; else `read`. */
  after(sessionId: string, afterSeq: number, read: () => TurnRecord[]): TurnRecord[] {
    const tail = this.tails.get(sessionId);
    // The tail covers every turn after afterSeq if it is the whole session or starts at or before afterSeq.
    if (!tail || !(tail.complete || (tail.turns[0] && tail.turns[0].seq <= afterSeq))) return read();
    return tail.turns.filter((turn) => turn.seq > afterSeq);
  }

  /** The session's turn count; `count` asks the database the first time. */
  count(sessionId: string, count: () => number): number {
    if (!sessionId.isWellFormed()) return count();
    const tail = this.tails.get(sessionId) ?? { turns: [], complete: false };
    tail.count ??= tail.complete ? tail.turns.length : count();
    this.touch(sessionId, tail);
    return tail.count;
  }

  /** A turn this window just recorded: the newest of its session. */
  recorded(turn: TurnRecord): void {
    const tail = this.tails.get(turn.sessionId);
    if (!tail) return;
    tail.turns.push(turn);
    if (tail.count !== undefined) tail.count++;
    if (tail.turns.length > tailTurns) {
      tail.turns.splice(0, tail.turns.length - tailTurns);
      tail.complete = false;
    }
  }

  /** Something other than our own recording changed this session's turns. */
  drop(sessionId: string): void {
    this.tails.delete(sessionId);
  }

  /** Turns may have left any session (a removal, a reload). */
  clear(): void {
    this.tails.clear();
  }

  private touch(sessionId: string, tail: Tail): void {
    // The map's order is the eviction order: the session used last goes to the end.
    this.tails.delete(sessionId);
    this.tails.set(sessionId, tail);
    if (this.tails.size > tailSessions) this.tails.delete(this.tails.keys().next().value as string);
  }
}
