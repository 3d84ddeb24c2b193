import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TokenCounter } from '../shared/tokenCounter';
import { defaultAllowlist } from '../memory/allowlist';
import { BehaviorBook } from '../memory/behaviorBook';
import { Corrections } from '../memory/correctionFlow';
import { Facts } from '../memory/facts';
import { MemoryStore } from '../store/memoryStore';
import { isTurnRole, type TurnRole } from '../store/turnRepository';

export type ReplayPolicy = 'defer' | 'consolidate' | 'corrections' | 'both';

/** One line of a replay corpus: a turn as `engram import` reads it, and for user turns the ground truth. */
export interface ReplayLine {
  readonly session: string;
  readonly role: TurnRole;
  readonly text: string;
  readonly at?: string;
  readonly ref?: string;
  /** Beliefs ("key=value") that are false from this user turn on. */
  readonly falsifies?: readonly string[];
}

export interface ReplayResult {
  readonly policy: ReplayPolicy;
  readonly userTurns: number;
  /** Consolidation passes that had a new confirmed value to check against its slot. */
  readonly runs: number;
  /** Embedding calls: consolidation here is by slot, so none. */
  readonly embed: number;
  /** Comparisons consolidation made (a new value against each live value of its key). */
  readonly cosine: number;
  /** User turns after which a belief known to be false was still live. */
  readonly wrongTurns: number;
  /** Retired beliefs that were never false. */
  readonly falseRetirements: number;
  /** Live (confirmed) beliefs at the end. */
  readonly live: number;
  readonly timeline: { readonly turn: number; readonly live: string[] }[];
}

export function isReplayLine(value: unknown): value is ReplayLine {
  const line = value as Partial<ReplayLine> | null;
  return (
    !!line &&
    typeof line.session === 'string' &&
    isTurnRole(line.role) &&
    typeof line.text === 'string' &&
    (line.falsifies === undefined || (Array.isArray(line.falsifies) && line.falsifies.every((f) => typeof f === 'string')))
  );
}

const belief = (key: string, value: string): string => `${key}=${value}`;

/**
 * Replays a conversation turn by turn against a throw-away store (never the user's), consolidated after every
 * user turn as the policy says; the assistant turns come from the corpus. Counts the wrong turns against the
 * ground truth, and the work done.
 */
export async function runReplay(lines: readonly ReplayLine[], options: { policy: ReplayPolicy; broadCorrections?: boolean; wasmPath: string; tokens: TokenCounter }): Promise<ReplayResult> {
  const folder = mkdtempSync(join(tmpdir(), 'engram-replay-'));
  const store = await MemoryStore.open({ folder, wasmPath: options.wasmPath, tokens: options.tokens, indexDelayMs: 3_600_000 });
  try {
    const consolidate = options.policy === 'consolidate' || options.policy === 'both';
    const correct = options.policy === 'corrections' || options.policy === 'both';
    let clock = Date.parse('2026-01-01T00:00:00Z');
    const now = (): Date => new Date(clock);
    const facts = new Facts(store, () => defaultAllowlist, options.tokens, now, consolidate);
    const corrections = correct ? new Corrections(store, facts, new BehaviorBook(store, options.tokens, now), { broad: options.broadCorrections }) : undefined;
    const falsified = new Set<string>();
    const everFalse = new Set(lines.flatMap((line) => line.falsifies ?? []));
    const timeline: { turn: number; live: string[] }[] = [];
    let runs = 0;
    let comparisons = 0;
    let wrongTurns = 0;
    for (const line of lines) {
      clock += 60_000;
      const turn = store.recordTurn({ sessionId: line.session, role: line.role, text: line.text, at: line.at ?? now().toISOString(), ref: line.ref, source: 'import' });
      if (line.role !== 'user') continue;
      for (const f of line.falsifies ?? []) falsified.add(f);
      corrections?.onUserTurn(turn);
      const liveBefore = facts.list('confirmed');
      const captured = facts.captureFromTurn(turn);
      if (consolidate && captured.learned.length > 0) {
        runs++;
        for (const learned of captured.learned) comparisons += liveBefore.filter((s) => s.key === learned.key).length;
      }
      const live = facts.list('confirmed').map((s) => belief(s.key, s.value)).sort();
      if (live.some((b) => falsified.has(b))) wrongTurns++;
      timeline.push({ turn: timeline.length + 1, live });
    }
    const falseRetirements = facts.list('retired').filter((s) => !everFalse.has(belief(s.key, s.value))).length;
    return {
      policy: options.policy,
      userTurns: timeline.length,
      runs,
      embed: 0,
      cosine: comparisons,
      wrongTurns,
      falseRetirements,
      live: facts.list('confirmed').length,
      timeline,
    };
  } finally {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
