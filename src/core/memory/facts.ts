import { systemClock, type Clock } from '../shared/clock';
import { randomUUID } from 'node:crypto';
import type { TokenCounter } from '../shared/tokenCounter';
import type { MemoryStore } from '../store/memoryStore';
import type { Allowlist } from './allowlist';
import { captureFacts } from './capture';
import { containsSecret } from '../shared/secrets';
import type { StatementOp } from './statementOps';
import {
  eventsOf,
  findLive,
  findStatement,
  lastLearned,
  listStatements,
  questionAskedIn,
  wasCaptured,
  wasRejected,
  type StatementEvent,
  type StatementRecord,
  type StatementStatus,
} from './statementRepository';

/** What one user turn did to the memory: learned now (tier A or repetition), asked about (B), queued. */
export interface TurnCapture {
  readonly learned: StatementRecord[];
  readonly question?: StatementRecord;
  readonly queued: StatementRecord[];
  readonly blocked?: string;
}

export interface CapturedTurn {
  readonly id: string;
  readonly sessionId: string;
  readonly role: 'user' | 'assistant';
  readonly text: string;
}

/**
 * Beliefs about the owner, and the only way they change. Only confirmed statements are ever used; a
 * proposal waits for the owner (a question in the chat, the review list, or the same words in three turns).
 */
export class Facts {
  constructor(
    private readonly store: MemoryStore,
    private readonly allowlist: () => Allowlist,
    private readonly tokens: TokenCounter,
    private readonly now: Clock = systemClock,
    /** Contested-slot consolidation: a new confirmed value of a single key retires the old one. On by default. */
    private readonly consolidate = true,
  ) {}

  private op(statementId: string, action: 'confirm' | 'reject' | 'retire' | 'mention' | 'ask', reason: string, extra: { turnId?: string; sessionId?: string } = {}): void {
    const supersede = this.consolidate || (action !== 'confirm' && action !== 'mention') ? {} : { supersede: false };
    const op: StatementOp = { kind: 'statement', action, id: randomUUID(), statementId, at: this.now().toISOString(), reason, ...extra, ...supersede };
    this.store.applyOperation(op);
  }

  private propose(input: { key: string; value: string; tier: 'A' | 'B' | 'C'; origin: 'chat' | 'remember'; words: string; turnId?: string; sessionId?: string }): StatementRecord {
    const slot = this.allowlist().get(input.key);
    if (!slot) throw new Error(`"${input.key}" is not a key Engram may learn (see the key allowlist)`);
    const statementId = randomUUID();
    this.store.applyOperation({
      kind: 'statement',
      action: 'propose',
      id: randomUUID(),
      statementId,
      at: this.now().toISOString(),
      reason: input.origin === 'remember' ? 'typed by the owner in Remember…' : `captured from your words (tier ${input.tier})`,
      key: input.key,
      value: input.value,
      cardinality: slot.cardinality,
      tier: input.tier,
      origin: input.origin,
      turnId: input.turnId,
      sessionId: input.sessionId,
      words: input.words,
      tokens: this.tokens.count(`${input.key}: ${input.value}`),
    });
    return this.get(statementId);
  }

  get(id: string): StatementRecord {
    const statement = this.store.read((db) => findStatement(db, id));
    if (!statement) throw new Error(`No statement ${id} in memory`);
    return statement;
  }

  list(status?: StatementStatus): StatementRecord[] {
    return this.store.read((db) => listStatements(db, status));
  }

  history(id: string): StatementEvent[] {
    return this.store.read((db) => eventsOf(db, id));
  }

  /**
   * Runs capture over a recorded turn and applies the confirmation tiers. `skipIfCaptured` leaves alone a
   * turn capture already saw (Compact Now re-reads old turns; a value since replaced must not come back).
   */
  captureFromTurn(turn: CapturedTurn, options: { skipIfCaptured?: boolean } = {}): TurnCapture {
    if (options.skipIfCaptured && this.store.read((db) => wasCaptured(db, turn.id))) return { learned: [], queued: [] };
    const captured = captureFacts(turn.role, turn.text, this.allowlist());
    const learned: StatementRecord[] = [];
    const queued: StatementRecord[] = [];
    let question: StatementRecord | undefined;
    const from = { turnId: turn.id, sessionId: turn.sessionId };
    for (const candidate of captured.candidates) {
      const live = this.store.read((db) => findLive(db, candidate.key, candidate.value));
      if (live) {
        if (live.status === 'proposed') {
          this.op(live.id, 'mention', 'said again', from);
          const after = this.get(live.id);
          if (after.status === 'confirmed') learned.push(after);
        }
        continue;
      }
      // The owner said no to this once; only the owner's own "Remember…" brings it back.
      if (this.store.read((db) => wasRejected(db, candidate.key, candidate.value))) continue;
      const statement = this.propose({ ...candidate, origin: 'chat', words: turn.text, ...from });
      if (candidate.tier === 'A') {
        this.op(statement.id, 'confirm', 'learned: a plain self-statement, confirmed in the turn and announced with an undo', from);
        learned.push(this.get(statement.id));
      } else if (candidate.tier === 'B' && !question && !this.store.read((db) => questionAskedIn(db, turn.sessionId))) {
        this.op(statement.id, 'ask', 'asked once in this conversation', from);
        question = this.get(statement.id);
      } else {
        queued.push(statement);
      }
    }
    return { learned, question, queued, blocked: captured.blocked };
  }

  approve(id: string, reason = 'approved by the owner'): StatementRecord {
    this.op(id, 'confirm', reason);
    return this.get(id);
  }

  reject(id: string, reason = 'rejected by the owner'): StatementRecord {
    this.op(id, 'reject', reason);
    return this.get(id);
  }

  /** Brings back a retired statement (the undo of a correction); it supersedes nothing on the way back. */
  restore(id: string, reason: string): StatementRecord {
    this.store.applyOperation({ kind: 'statement', action: 'confirm', id: randomUUID(), statementId: id, at: this.now().toISOString(), reason, supersede: false });
    return this.get(id);
  }

  retire(id: string, reason: string, turnId?: string): StatementRecord {
    this.op(id, 'retire', reason, { turnId });
    return this.get(id);
  }

  edit(id: string, value: string): StatementRecord {
    const trimmed = value.trim();
    if (!trimmed) throw new Error('A fact needs a value');
    if (containsSecret(trimmed)) throw new Error('That looks like a secret; Engram never stores secrets');
    this.store.applyOperation({
      kind: 'statement', action: 'edit', id: randomUUID(), statementId: id, at: this.now().toISOString(),
      reason: `value edited by the owner (was ${this.get(id).value})`, value: trimmed, tokens: this.tokens.count(`${this.get(id).key}: ${trimmed}`),
    });
    return this.get(id);
  }

  /** The owner states a fact directly: confirmed at once, still checked against the allowlist and for secrets. */
  remember(key: string, value: string): StatementRecord {
    const trimmed = value.trim();
    if (!trimmed) throw new Error('A fact needs a value');
    if (containsSecret(`${key} ${trimmed}`)) throw new Error('That looks like a secret; Engram never stores secrets');
    const live = this.store.read((db) => findLive(db, key, trimmed));
    if (live?.status === 'confirmed') return live;
    const statement = live ?? this.propose({ key, value: trimmed, tier: 'A', origin: 'remember', words: `${key} = ${trimmed}` });
    return this.approve(statement.id, 'remembered at the owner’s request');
  }

  /** Takes back what the most recent turn learned ("undo last learned", or the Undo button). */
  undoLastLearned(sessionId?: string): StatementRecord[] {
    const batch = this.store.read((db) => lastLearned(db, sessionId));
    return batch.map((statement) => this.retire(statement.id, 'undone by the owner ("undo last learned")'));
  }
}
