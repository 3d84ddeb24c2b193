import { retirementsIn } from '../capture/retirements';
import type { MemoryStore } from '../store/memoryStore';
import type { TurnRecord } from '../store/turnRepository';
import type { BehaviorBook } from './behaviorBook';
import type { BehaviorRecord } from './behaviors';
import { attributeCorrection, detectCorrection, voices, type CorrectionMatch } from './correctionShapes';
import type { Facts } from './facts';
import type { StatementRecord } from './statementRepository';

export interface CorrectionOutcome {
  readonly match: CorrectionMatch;
  /** The belief retired, when the correction could be attributed to exactly one voiced belief. */
  readonly retired?: StatementRecord;
  /** The lesson proposed from it, waiting for the owner. */
  readonly lesson?: BehaviorRecord;
  /** A correction with no single target: nothing was retired, and the user should be asked which belief. */
  readonly unattributed: boolean;
}

/**
 * Acts on a correction in its own turn, never earlier: finds the belief the preceding assistant turn voiced
 * (its retrieval log first, then its own words), retires it with the user's and the assistant's words as the
 * reason, and proposes a lesson. It does not lower a confidence: the user said the belief is false.
 */
export class Corrections {
  constructor(
    private readonly store: MemoryStore,
    private readonly facts: Facts,
    private readonly behaviors: BehaviorBook | undefined,
    /** The facts a turn's prompt carried or its tools returned: its retrieval log (kept with its context report). */
    private readonly retrievedFor: (userTurnId: string) => readonly string[],
    private readonly options: { broad?: boolean } = {},
  ) {}

  onUserTurn(turn: TurnRecord): CorrectionOutcome | undefined {
    const voiced = this.ofVoicedBelief(turn);
    if (voiced && !voiced.unattributed) return voiced;
    return this.ownRetirement(turn) ?? voiced;
  }

  /**
   * "I left Northwind last month", "I no longer use Vim": the owner's own retirement frame (capture/retirements.ts)
   * retires the one confirmed belief it names, whether or not the assistant voiced it, with the owner's words as the
   * reason. No lesson is proposed: the assistant did nothing wrong. Two beliefs that fit the name: nothing is retired.
   */
  private ownRetirement(turn: TurnRecord): CorrectionOutcome | undefined {
    for (const said of retirementsIn(turn.role, turn.text)) {
      const named = this.facts.list('confirmed').filter((statement) => voices(said.old, statement.value) || voices(statement.value, said.old));
      if (named.length !== 1) continue;
      const match: CorrectionMatch = { shape: `the owner's own words (${said.language}): no longer ${said.old}`, named: said.old };
      const retired = this.facts.retire(named[0].id, `retired by the owner's own words: “${turn.text}”`, turn.id);
      return { match, retired, unattributed: false };
    }
    return undefined;
  }

  /** The seed's correction: a user turn that rejects the assistant turn before it, which voiced the belief. */
  private ofVoicedBelief(turn: TurnRecord): CorrectionOutcome | undefined {
    // Only the two turns before this one matter: the assistant's reply and the question it answered.
    const before = this.store.recentTurns(turn.sessionId, 3).filter((t) => t.seq < turn.seq);
    const previous = before.at(-1);
    if (!previous || previous.role !== 'assistant') return undefined;
    const match = detectCorrection(turn.text, previous.text, this.options);
    if (!match) return undefined;
    const askedTurn = before.at(-2);
    const retrieved = new Set(askedTurn ? this.retrievedFor(askedTurn.id) : []);
    const live = this.facts.list('confirmed').map((s) => ({ id: s.id, key: s.key, value: s.value, retrieved: retrieved.has(s.id) }));
    const target = attributeCorrection(match, previous.text, live);
    if (!target) return { match, unattributed: true };
    const assistantWords = previous.text.length > 160 ? `${previous.text.slice(0, 157)}…` : previous.text;
    const retired = this.facts.retire(
      target.id,
      `corrected by the owner (${match.shape}): “${turn.text}”; the assistant had said: “${assistantWords}”`,
      turn.id,
    );
    const lesson = this.behaviors?.propose(
      `Check the user's current ${target.key} before naming it; they corrected "${target.value}" once.`,
      `On ${turn.at.slice(0, 10)} the user said “${turn.text}” after the assistant said “${assistantWords}”.`,
      { turnId: turn.id, statementId: target.id },
    );
    return { match, retired, lesson, unattributed: false };
  }
}
