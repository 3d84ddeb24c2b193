import { systemClock, type Clock } from '../shared/clock';
import { randomUUID } from 'node:crypto';
import type { TokenCounter } from '../shared/tokenCounter';
import type { MemoryStore } from '../store/memoryStore';
import type { Allowlist } from './allowlist';
import { captureFacts, type Candidate } from '../capture/capture';
import { captureProjectFacts } from '../capture/projectCapture';
import { defaultProjectAllowlist } from './projectAllowlist';
import { containsSecret, redactSecrets } from '../shared/secrets';
import { SettledValues } from './settledValues';
import type { StatementOp } from './statementOps';
import {
  eventsOf,
  findLive,
  findStatement,
  lastLearned,
  listStatements,
  pendingQuestions,
  questionAskedIn,
  settledValues,
  wasCaptured,
  wasRejected,
  type Citation,
  type StatementEvent,
  type StatementOrigin,
  type StatementRecord,
  type StatementScope,
  type StatementStatus,
} from './statementRepository';

export { SettledValues } from './settledValues';

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

interface ProposalInput {
  key: string; value: string; tier: 'A' | 'B' | 'C'; origin: StatementOrigin; words: string; turnId?: string; sessionId?: string; reason?: string;
  scope?: StatementScope; citation?: Citation;
}

/** A proposal read off the repository or a teammate's file, for the owner's review. */
export interface ReviewInput {
  readonly scope: StatementScope;
  readonly key: string;
  readonly value: string;
  readonly origin: 'derived' | 'shared';
  readonly words: string;
  readonly reason: string;
  readonly citation?: Citation;
}

/** What an agent's proposal did: a new proposal, or the same statement already known (nothing written then). */
export interface AgentProposal {
  readonly statement: StatementRecord;
  readonly outcome: 'proposed' | 'already proposed' | 'already confirmed';
}

/** The reason an agent's proposal is recorded with: it names the client, so its pending proposals can be counted. */
export function agentProposalReason(client: string): string {
  return `proposed by the agent "${client}" over MCP; waits for the owner's review`;
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
    /** The keys Engram may learn about a project (a separate allowlist from the owner's). */
    private readonly projectAllowlist: () => Allowlist = () => defaultProjectAllowlist,
  ) {
    // Every prompt lists the confirmed facts; reading 1,000 rows each time cost 9 ms. Kept until statements change.
    store.onDidChange((kinds) => {
      if (kinds.has('statement') || kinds.has('forgetSessions') || kinds.has('coolSessions')) this.listed.clear();
    });
  }

  private readonly listed = new Map<string, StatementRecord[]>();

  /** The allowlist of a scope: the owner's keys, or the project keys. */
  slotsOf(scope: StatementScope): Allowlist {
    return scope === 'owner' ? this.allowlist() : this.projectAllowlist();
  }

  private op(statementId: string, action: 'confirm' | 'reject' | 'retire' | 'mention' | 'ask', reason: string, extra: { turnId?: string; sessionId?: string } = {}): void {
    const supersede = this.consolidate || (action !== 'confirm' && action !== 'mention') ? {} : { supersede: false };
    const op: StatementOp = { kind: 'statement', action, id: randomUUID(), statementId, at: this.now().toISOString(), reason, ...extra, ...supersede };
    this.store.applyOperation(op);
    if (action === 'confirm' && this.consolidate) this.dropOlderProposals(statementId);
  }

  /**
   * A single key just got a confirmed value: older proposals of that key (a question left unanswered, a queued
   * guess) are settled by it, so they leave Proposed instead of sitting beside the newer belief.
   */
  private dropOlderProposals(confirmedId: string): void {
    const confirmed = this.get(confirmedId);
    if (confirmed.cardinality !== 'single') return;
    for (const pending of this.list('proposed', confirmed.scope)) {
      if (pending.key !== confirmed.key || pending.id === confirmedId) continue;
      const op: StatementOp = {
        // Retired, not rejected: the owner never said no to it, so saying it later is captured as usual.
        kind: 'statement', action: 'retire', id: randomUUID(), statementId: pending.id, at: this.now().toISOString(),
        reason: `settled by a newer confirmed value: ${confirmed.key} = ${confirmed.value}`,
      };
      this.store.applyOperation(op);
    }
  }

  private propose(input: ProposalInput): StatementRecord {
    const op = this.proposal(input);
    this.store.applyOperation(op);
    return this.get(op.statementId);
  }

  /** The operation that proposes a statement (checked against the scope's allowlist; throws for a key it lacks). */
  private proposal(input: ProposalInput): StatementOp & { statementId: string } {
    const scope = input.scope ?? 'owner';
    const slot = this.slotsOf(scope).get(input.key);
    if (!slot) throw new Error(`"${input.key}" is not a key Engram may learn ${scope === 'owner' ? '(see the key allowlist)' : 'about a project'}`);
    return {
      kind: 'statement',
      action: 'propose',
      id: randomUUID(),
      statementId: randomUUID(),
      at: this.now().toISOString(),
      reason: input.reason ?? (input.origin === 'remember' ? 'typed by the owner in Remember…' : `captured from your words (tier ${input.tier})`),
      key: input.key,
      value: input.value,
      cardinality: slot.cardinality,
      tier: input.tier,
      origin: input.origin,
      turnId: input.turnId,
      sessionId: input.sessionId,
      words: input.words,
      tokens: this.tokens.count(`${input.key}: ${input.value}`),
      // Owner statements are journaled as before scopes existed, so an older Engram still reads them.
      ...(scope === 'owner' ? {} : { scope }),
      ...(input.citation ? { citation: input.citation } : {}),
    };
  }

  get(id: string): StatementRecord {
    const statement = this.store.read((db) => findStatement(db, id));
    if (!statement) throw new Error(`No statement ${id} in memory`);
    return statement;
  }

  /**
   * The statements of a scope (the owner's unless told) and status (all without one), by key, newest first.
   * A fresh array each call: callers may sort it.
   */
  list(status?: StatementStatus, scope: StatementScope = 'owner'): StatementRecord[] {
    const key = `${scope}\u0000${status ?? 'all'}`;
    let listed = this.listed.get(key);
    if (!listed) {
      listed = this.store.read((db) => listStatements(db, status, scope));
      this.listed.set(key, listed);
    }
    return [...listed];
  }

  /** The questions asked in a conversation and not answered yet, whatever their scope (owner or project), newest first. */
  pendingQuestions(): StatementRecord[] {
    return this.store.read((db) => pendingQuestions(db));
  }

  history(id: string): StatementEvent[] {
    return this.store.read((db) => eventsOf(db, id));
  }

  /**
   * Runs capture over a recorded turn and applies the confirmation tiers. `skipIfCaptured` leaves alone a
   * turn capture already saw (Compact Now re-reads old turns; a value since replaced must not come back).
   */
  captureFromTurn(turn: CapturedTurn, options: { skipIfCaptured?: boolean; project?: StatementScope } = {}): TurnCapture {
    if (options.skipIfCaptured && this.store.read((db) => wasCaptured(db, turn.id))) return { learned: [], queued: [] };
    const captured = captureFacts(turn.role, turn.text, this.allowlist());
    const result = { learned: [] as StatementRecord[], queued: [] as StatementRecord[], question: undefined as StatementRecord | undefined };
    this.settle(captured.candidates, 'owner', turn, result);
    // "We use vitest here" is about the project the owner works in, not the owner; without a project, it is not kept.
    const project = options.project;
    if (project && project !== 'owner') this.settle(captureProjectFacts(turn.role, turn.text, this.projectAllowlist()), project, turn, result);
    return { ...result, blocked: captured.blocked };
  }

  /** The confirmation tiers over one scope's candidates: A confirmed, one B asked per conversation, the rest queued. */
  private settle(candidates: readonly Candidate[], scope: StatementScope, turn: CapturedTurn, into: { learned: StatementRecord[]; queued: StatementRecord[]; question?: StatementRecord }): void {
    const from = { turnId: turn.id, sessionId: turn.sessionId };
    for (const candidate of candidates) {
      const live = this.store.read((db) => findLive(db, candidate.key, candidate.value, scope));
      if (live?.status === 'proposed' && live.origin === 'agent') {
        // An agent's proposal never stands in for the owner's own words: it is closed, and the words are captured
        // as the owner's, with their own tier (a plain self-statement is confirmed now, as without the agent).
        this.op(live.id, 'retire', `closed: the owner said it in their own words (turn ${turn.id})`, from);
      } else if (live) {
        if (live.status === 'proposed') {
          this.op(live.id, 'mention', 'said again', from);
          const after = this.get(live.id);
          if (after.status === 'confirmed') into.learned.push(after);
        }
        continue;
      }
      // The owner said no to this once; only the owner's own "Remember…" brings it back.
      if (this.store.read((db) => wasRejected(db, candidate.key, candidate.value, scope))) continue;
      const statement = this.propose({ ...candidate, origin: 'chat', words: turn.text, scope, ...from });
      if (candidate.tier === 'A') {
        this.op(statement.id, 'confirm', 'learned: a plain self-statement, confirmed in the turn and announced with an undo', from);
        into.learned.push(this.get(statement.id));
      } else if (candidate.tier === 'B' && !into.question && !this.store.read((db) => questionAskedIn(db, turn.sessionId))) {
        this.op(statement.id, 'ask', 'asked once in this conversation', from);
        into.question = this.get(statement.id);
      } else {
        into.queued.push(statement);
      }
    }
  }

  /**
   * A proposal Engram did not hear from the owner: read off the repository (derived, with its citation) or from a
   * teammate's shared file. It waits for the owner; a value already live or once rejected in the scope is left alone.
   */
  proposeForReview(input: ReviewInput): StatementRecord | undefined {
    return this.proposeAllForReview(input.scope, [input])[0];
  }

  /** The values of a scope a new proposal must not repeat (live or once rejected), in one lookup. */
  settled(scope: StatementScope): SettledValues {
    return new SettledValues(this.store.read((db) => settledValues(db, scope)));
  }

  /**
   * Many such proposals in one pass: one lookup of the scope's statements, one batch of operations (one transaction,
   * one change notice), so a team file of a thousand lines costs about what one line does. Values already live or
   * once rejected, repeated in the batch, secret-looking or on keys the scope lacks are left out.
   */
  proposeAllForReview(
    scope: StatementScope,
    inputs: readonly Omit<ReviewInput, 'scope'>[],
    known: SettledValues = this.settled(scope),
    /** Told of each input left out because of its key or a secret (a value already known is not news). */
    onRefused: (index: number, why: string) => void = () => undefined,
  ): StatementRecord[] {
    const slots = this.slotsOf(scope);
    const ops: (StatementOp & { statementId: string })[] = [];
    for (const [index, input] of inputs.entries()) {
      if (known.has(input.key, input.value)) continue;
      const refused = !slots.has(input.key)
        ? `not a key Engram may learn ${scope === 'owner' ? '' : 'about a project '}(${input.key})`
        : containsSecret(`${input.key} ${input.value}`) ? 'looks like a secret (Engram never stores secrets)' : undefined;
      if (refused) {
        onRefused(index, refused);
        continue;
      }
      known.add(input.key, input.value);
      ops.push(this.proposal({ ...input, scope, tier: 'C' }));
    }
    if (ops.length === 0) return [];
    this.store.applyOperations(ops);
    const added = new Set(ops.map((op) => op.statementId));
    return this.store.read((db) => listStatements(db, 'proposed', scope)).filter((statement) => added.has(statement.id));
  }

  /**
   * Forgets a statement from every file of the store: the rows and their audit trail now, then a snapshot that
   * rewrites our journal out and zeroes the freed pages (the store's forget seam, as for a conversation).
   */
  async forget(id: string): Promise<void> {
    this.store.applyOperation({ kind: 'statement', action: 'forget', id: randomUUID(), statementId: id, at: this.now().toISOString(), reason: 'forgotten by the owner' });
    await this.store.purgeJournals();
  }

  /**
   * Queues facts a model proposed for a turn (modelProposer.ts, already checked against the owner's words) for
   * the owner's review. Never confirms: a proposal already live or once rejected is left alone.
   */
  queueModelProposals(turn: CapturedTurn, candidates: readonly { key: string; value: string }[]): StatementRecord[] {
    const queued: StatementRecord[] = [];
    for (const candidate of candidates) {
      if (!this.allowlist().has(candidate.key)) continue;
      if (this.store.read((db) => findLive(db, candidate.key, candidate.value) ?? wasRejected(db, candidate.key, candidate.value))) continue;
      queued.push(
        this.propose({
          key: candidate.key, value: candidate.value, tier: 'C', origin: 'chat', words: turn.text, turnId: turn.id, sessionId: turn.sessionId,
          reason: 'proposed by the model from your words, checked by capture; waits for you',
        }),
      );
    }
    return queued;
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

  /** The owner states a fact directly: confirmed at once, still checked against the scope's allowlist and for secrets. */
  remember(key: string, value: string, scope: StatementScope = 'owner'): StatementRecord {
    const trimmed = value.trim();
    if (!trimmed) throw new Error('A fact needs a value');
    if (containsSecret(`${key} ${trimmed}`)) throw new Error('That looks like a secret; Engram never stores secrets');
    const live = this.store.read((db) => findLive(db, key, trimmed, scope));
    if (live?.status === 'confirmed') return live;
    const statement = live ?? this.propose({ key, value: trimmed, tier: 'A', origin: 'remember', words: `${key} = ${trimmed}`, scope });
    return this.approve(statement.id, 'remembered at the owner’s request');
  }

  /**
   * Another agent's claim about the owner (MCP `propose_fact`): what an agent says is not the owner's word, so it
   * only ever becomes a tier-C proposal in the review queue, through the same allowlist and secret checks as
   * capture. Saying it again changes nothing (it is not a mention: only the owner's turns count towards
   * confirmation). Throws, with nothing written, when the claim may not be stored.
   */
  proposeFromAgent(input: { key: string; value: string; evidence?: string; client: string }): AgentProposal {
    const key = input.key.trim().toLowerCase();
    const value = input.value.trim();
    if (!this.allowlist().get(key)) throw new Error(`"${key}" is not a key Engram may learn; keys: ${[...this.allowlist().keys()].join(', ')}`);
    if (!value) throw new Error('A fact needs a value');
    if (containsSecret(`${key} ${value}`)) throw new Error('That looks like a secret; Engram never stores secrets');
    const live = this.store.read((db) => findLive(db, key, value));
    if (live) return { statement: live, outcome: live.status === 'confirmed' ? 'already confirmed' : 'already proposed' };
    if (this.store.read((db) => wasRejected(db, key, value))) throw new Error(`The owner rejected ${key} = ${value} before; it is not proposed again`);
    const evidence = input.evidence?.trim() ? redactSecrets(input.evidence.trim()) : undefined;
    const statement = this.propose({
      key,
      value,
      tier: 'C',
      origin: 'agent',
      words: evidence ?? `${key} = ${value}`,
      reason: agentProposalReason(input.client),
    });
    return { statement, outcome: 'proposed' };
  }

  /** Takes back what the most recent turn learned ("undo last learned", or the Undo button). */
  undoLastLearned(sessionId?: string): StatementRecord[] {
    const batch = this.store.read((db) => lastLearned(db, sessionId));
    return batch.map((statement) => this.retire(statement.id, 'undone by the owner ("undo last learned")'));
  }
}
