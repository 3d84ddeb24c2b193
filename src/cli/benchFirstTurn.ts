import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { TokenCounter } from '../core/shared/tokenCounter';
import { MemoryStore } from '../core/store/memoryStore';
import { EngramMemory } from '../core/turn/engramMemory';
import { MemoryToolRunner } from '../core/turn/memoryTools';
import { TurnEngine } from '../core/turn/turnEngine';
import { answeringModel, type ToolRunner } from '../core/turn/turnModel';
import { runWarmUp, warmUpSteps } from '../core/turn/warmUp';
import { workspaceToolSpecs } from '../core/turn/workspaceTools';

/** What one fresh process measured: the first turn's handler-to-model-request, and the warm-up it ran first (if any). */
export interface FirstTurn {
  readonly firstTurnMs: number;
  /** Host-thread time of the warm-up steps, run before the first message as the extension runs them after activation. */
  readonly warmUpMs: number;
  /** The same measure on the turns after it, in the same process (p50 of 5). */
  readonly laterTurnMs: number;
}

/**
 * `bench-first-turn`: in this fresh process (run by the benchmark, so nothing is loaded yet), opens the store as
 * activation does, optionally runs the warm-up steps, then times from the turn's start to the model request for the
 * first message and for five more. Cold work a first turn meets: the tokenizer's encoding, the NLP tagger, capture's
 * shapes, sql.js's first queries, the tool catalogue's definitions counted.
 */
export async function measureFirstTurn(folder: string, wasmPath: string, tokens: TokenCounter, warm: boolean): Promise<FirstTurn> {
  const store = await MemoryStore.open({ folder, wasmPath, tokens, indexDelayMs: 3_600_000 });
  try {
    const memory = new EngramMemory(store, tokens);
    const engine = new TurnEngine({ memory, tokens });
    const memoryTools = new MemoryToolRunner(() => store, undefined, () => memory.retiredBeliefs());
    // The catalogue a turn chooses from: Engram's memory tools and its workspace read tools, as in a VS Code window.
    const tools: ToolRunner = {
      specs: () => [...memoryTools.specs(), ...workspaceToolSpecs],
      run: (call, signal, turn) => memoryTools.run(call, signal, turn),
      alwaysOffered: memoryTools.alwaysOffered,
    };
    let requestedAt = 0;
    const model = answeringModel('bench', () => {
      requestedAt ||= performance.now();
      return 'All right.';
    });
    const warmUpMs = warm ? await runWarmUp(warmUpSteps(engine, memory, { model, tools })) : 0;
    const toRequest: number[] = [];
    // Messages of one kind (coding questions that teach nothing), so the first differs from the others only by being first.
    const messages = ['why does the parser test hang when I run it with --watch?', 'how do I rename a git branch without losing the upstream?',
      'what does this error mean: ECONNRESET in the worker?', 'can you explain the retry loop in the fetch helper?',
      'where is the migration that adds the index defined?', 'which config file sets the lint rules for the tests?'];
    for (const text of messages) {
      requestedAt = 0;
      const started = performance.now();
      await engine.run({ sessionId: `bench-first-turn-${warm ? 'warm' : 'cold'}`, text }, { model, tools, onText: () => undefined });
      toRequest.push(requestedAt - started);
    }
    await store.flush();
    const later = toRequest.slice(1).sort((a, b) => a - b);
    return { firstTurnMs: toRequest[0], warmUpMs, laterTurnMs: later[Math.floor(later.length / 2)] };
  } finally {
    await store.close();
  }
}

/** Runs `bench-first-turn` in a fresh process (as a new window would be), on a copy of nothing: the store given. */
export function firstTurnInFreshProcess(cliPath: string, folder: string, warm: boolean): FirstTurn {
  const child = spawnSync(process.execPath, [cliPath, 'bench-first-turn', '--db', folder, ...(warm ? ['--warm'] : [])], { encoding: 'utf8' });
  const line = /^firstTurn=(\{.*\})$/m.exec(child.stdout)?.[1];
  if (!line) throw new Error(`bench-first-turn printed no figure (exit ${child.status}): ${child.stderr.slice(0, 400)}`);
  return JSON.parse(line) as FirstTurn;
}

/** The benchmark's line for people: the first turn beside the later ones, warmed as the extension warms it, and cold. */
export function firstTurnLine(warm: FirstTurn, cold: FirstTurn): string {
  const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 0)} ms`;
  return `first turn of a fresh process: ${ms(warm.firstTurnMs)} from the handler to the model request after the warm-up ` +
    `(${ms(warm.warmUpMs)} of steps at activation), ${ms(cold.firstTurnMs)} cold; later turns ${ms(warm.laterTurnMs)}`;
}
