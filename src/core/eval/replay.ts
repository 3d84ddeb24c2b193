import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TokenCounter } from '../shared/tokenCounter';
import { MemoryStore } from '../store/memoryStore';
import { EngramMemory } from '../turn/engramMemory';
import { voices, type RetiredBelief } from '../context/staleBeliefs';
import { MemoryToolRunner } from '../turn/memoryTools';
import { TurnEngine } from '../turn/turnEngine';
import { answeringModel } from '../turn/turnModel';
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
  /** Assistant turns whose prompt (as the engine assembles it) presented a retired belief as true: voiced, unmarked. */
  readonly staleTurns: number;
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

/** A laptop-sized prompt, as `engram.ollama.contextLength`'s default gives. */
const replayBudget = 5_500;
/** Replay assembles prompts and never sends them: its model is never asked. */
const replayModel = answeringModel('replay', () => '');

/** A retired belief is presented as true when a block of memory or conversation says it and the "No longer true" block does not name it. */
export function presentsRetiredAsTrue(prompt: { readonly blocks: readonly { readonly id: string; readonly text: string }[] }, retired: readonly RetiredBelief[]): boolean {
  const marked = prompt.blocks.find((block) => block.id === 'stale')?.text ?? '';
  // The identity is Engram's own fixed text ("a coding assistant inside VS Code"), and the message is the user's words now.
  const said = prompt.blocks.filter((block) => !['stale', 'prompt', 'identity'].includes(block.id)).map((block) => block.text);
  return retired.some((b) => said.some((text) => voices(text, b)) && !marked.includes(`${b.key} = ${b.value}`));
}

/**
 * Replays a conversation turn by turn against a throw-away store (never the user's), consolidated after every
 * user turn as the policy says; the assistant turns come from the corpus. Counts the wrong turns against the
 * ground truth, and the work done.
 */
export async function runReplay(
  lines: readonly ReplayLine[],
  options: { policy: ReplayPolicy; broadCorrections?: boolean; wasmPath: string; tokens: TokenCounter; markStale?: boolean },
): Promise<ReplayResult> {
  const folder = mkdtempSync(join(tmpdir(), 'engram-replay-'));
  let clock = Date.parse('2026-01-01T00:00:00Z');
  const now = (): Date => new Date(clock);
  const store = await MemoryStore.open({ folder, wasmPath: options.wasmPath, tokens: options.tokens, indexDelayMs: 3_600_000, now });
  try {
    const consolidate = options.policy === 'consolidate' || options.policy === 'both';
    const correct = options.policy === 'corrections' || options.policy === 'both';
    const memory = new EngramMemory(store, options.tokens, { now, consolidate, broadCorrections: options.broadCorrections });
    // The same engine as @engram and the CLI's chat: its preparation (record, correction, capture) per user turn;
    // the assistant's turns come from the corpus instead of a model.
    const engine = new TurnEngine({ memory, tokens: options.tokens, actOnCorrections: correct, markStale: options.markStale ?? true });
    const tools = new MemoryToolRunner(() => store);
    let staleTurns = 0;
    const { facts } = memory;
    const falsified = new Set<string>();
    const everFalse = new Set(lines.flatMap((line) => line.falsifies ?? []));
    const timeline: { turn: number; live: string[] }[] = [];
    let runs = 0;
    let comparisons = 0;
    let wrongTurns = 0;
    for (const line of lines) {
      clock += 60_000;
      if (line.role !== 'user') {
        engine.recordReply(line.session, line.text);
        continue;
      }
      for (const f of line.falsifies ?? []) falsified.add(f);
      const liveBefore = facts.list('confirmed');
      const prepared = engine.prepare({ sessionId: line.session, text: line.text });
      if (consolidate && prepared.capture.learned.length > 0) {
        runs++;
        for (const learned of prepared.capture.learned) comparisons += liveBefore.filter((s) => s.key === learned.key).length;
      }
      const live = facts.list('confirmed').map((s) => belief(s.key, s.value)).sort();
      if (live.some((b) => falsified.has(b))) wrongTurns++;
      // The prompt the reply to this turn would be written from: does any block still say a retired belief, unmarked?
      if (prepared.direct === undefined && presentsRetiredAsTrue(engine.previewPrompt(prepared, replayBudget, { model: replayModel, tools }), memory.retiredBeliefs())) staleTurns++;
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
      staleTurns,
      timeline,
    };
  } finally {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  }
}
