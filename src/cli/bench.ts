import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { TokenCounter } from '../core/shared/tokenCounter';
import { compactInWorker } from '../core/store/compactInWorker';
import { JournalWriter } from '../core/store/journal';
import { MemoryStore } from '../core/store/memoryStore';
import { EngramMemory } from '../core/turn/engramMemory';
import { MemoryToolRunner } from '../core/turn/memoryTools';
import { TurnEngine, type TurnPart } from '../core/turn/turnEngine';
import { answeringModel } from '../core/turn/turnModel';
import { searchStoredTurns } from '../core/recall/turnSearch';
import { writeFileAtomically } from '../core/store/snapshotFile';
import { storeLayout } from '../core/store/storeLayout';
import { mulberry32 as seededRandom } from '../core/eval/recallCorpus';
import { benchCapture } from './benchCapture';
import { firstTurnInFreshProcess, firstTurnLine } from './benchFirstTurn';
import { benchTeamFile } from './benchTeamFile';
import { benchRecall } from './benchRecall';
import { corpusSentence, writeBenchCorpus } from './benchCorpus';
import type { OpenMeasure } from './benchScale';

const benchSummary = '## Goal\nShip the pipeline.\n## Decisions\nUse the new index.\n## Facts and context\n- a benchmark\n## Open questions\n- none';

/** Multi-valued keys, so every bench fact stays confirmed (a single key would retire the one before). */
const benchFactKeys = ['languages', 'frameworks', 'style'] as const;

export interface BenchOptions {
  readonly turns: number;
  /** Confirmed facts in the store while turns are measured. */
  readonly facts: number;
  readonly samples: number;
  readonly wasmPath: string;
  readonly workerPath: string;
  readonly cliPath: string;
  readonly tokens: TokenCounter;
  readonly log: (line: string) => void;
}

export interface Percentiles {
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
}

export function percentiles(samples: number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0);
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: round(sorted[sorted.length - 1] ?? 0) };
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/**
 * Measures, in one run on a throw-away store of N turns and F confirmed facts (never the user's): one chat turn
 * through the turn engine on the host thread (everything but the model's own time), with its parts, a naive
 * save-per-turn beside it, recall latency, capture per message, cold open, and how long a snapshot in the worker
 * blocks the host thread.
 */
export async function runBench(options: BenchOptions): Promise<Record<string, unknown>> {
  const folder = mkdtempSync(join(tmpdir(), 'engram-bench-'));
  try {
    const setupStarted = performance.now();
    await writeBenchCorpus(folder, options.wasmPath, options.turns);
    options.log(`corpus of ${options.turns} turns written in ${Math.round(performance.now() - setupStarted)} ms`);

    // Cold open in a fresh process: sql.js's wasm compiled from scratch, snapshot read, journals replayed.
    const coldOpen = spawnSync(process.execPath, [options.cliPath, 'bench-open', '--db', folder], { encoding: 'utf8' });
    const activationMs = Number(/"openMs":([\d.]+)/.exec(coldOpen.stdout)?.[1] ?? NaN);

    // The search index is brought up to date at quiet moments; here every 10 turns, timed apart (idleIndexMs).
    const store = await MemoryStore.open({ folder, wasmPath: options.wasmPath, tokens: options.tokens, indexDelayMs: 3_600_000 });
    const memory = new EngramMemory(store, options.tokens);
    const factsStarted = performance.now();
    for (let i = 0; i < options.facts; i++) memory.facts.remember(benchFactKeys[i % benchFactKeys.length], `Bench${i}`);
    options.log(`${options.facts} confirmed facts written in ${Math.round(performance.now() - factsStarted)} ms`);
    await store.flush();

    const idleIndex: number[] = [];
    const otherWindow = JournalWriter.create(folder, () => undefined);
    const random = seededRandom(7);
    const sessionId = 'bench-live';
    const perTurn: number[] = [];
    const toModel: number[] = [];
    const parts: Record<TurnPart, number[]> = { prepare: [], assemble: [], finish: [] };
    let timings: Partial<Record<TurnPart, number>> = {};
    // The one engine of a turn, as @engram runs it, with a model that answers at once: what is left is the turn's own work.
    const engine = new TurnEngine({ memory, tokens: options.tokens, onTiming: (part, ms) => (timings[part] = ms) });
    let requestedAt = 0;
    let replyText = '';
    const instantModel = answeringModel('bench', (messages) => {
      requestedAt ||= performance.now();
      // A summary roll (off the reply path) gets a usable summary, as a model would write one.
      return /running summary/.test(messages[0]?.content ?? '') ? benchSummary : replyText;
    });
    const tools = new MemoryToolRunner(() => store);
    const warmup = 20;
    for (let i = 0; i < warmup + options.samples; i++) {
      if (i % 5 === 0) {
        const text = corpusSentence(random, 20);
        await otherWindow.append({ kind: 'turn', id: `other-${i}`, sessionId: 'other-window', role: 'user', text, at: new Date().toISOString(), tokens: options.tokens.count(text), source: 'chat' });
      }
      const userText = corpusSentence(random, 12);
      replyText = corpusSentence(random, 60);
      timings = {};
      requestedAt = 0;
      const t0 = performance.now();
      await engine.run({ sessionId, text: userText }, { model: instantModel, tools, onText: () => undefined });
      const t1 = performance.now();
      // The journal's fdatasync runs on the thread pool while the reply streams; it is not host-thread time.
      await store.flush();
      if (i % 10 === 9) {
        const started = performance.now();
        store.indexPending();
        if (i >= warmup) idleIndex.push(performance.now() - started);
      }
      if (i < warmup) continue;
      perTurn.push(t1 - t0);
      toModel.push(requestedAt - t0);
      for (const part of Object.keys(parts) as TurnPart[]) parts[part].push(timings[part] ?? 0);
    }
    await otherWindow.close();
    const confirmedFacts = memory.facts.list('confirmed').length;

    // A recall_conversation call: on demand, when the model asks, so measured apart from the per-turn work.
    const recall: number[] = [];
    for (let i = 0; i < 200; i++) {
      const query = corpusSentence(random, 6);
      const t0 = performance.now();
      searchStoredTurns(store, query, { k: 10 });
      recall.push(performance.now() - t0);
    }

    // The recall_conversation engine the user gets, beside native FTS5 in the same run.
    const recallConversation = benchRecall(store, random, 200, percentiles);

    // Capture runs on the host thread before the reply: its own figure, per message, after the library's one load.
    const capture = benchCapture();

    const naive: number[] = [];
    const naiveSamples = options.turns >= 50_000 ? 5 : 15;
    const naivePath = join(folder, 'naive-copy.sqlite');
    for (let i = 0; i < naiveSamples; i++) {
      const t0 = performance.now();
      writeFileAtomically(naivePath, store.exportForComparison());
      naive.push(performance.now() - t0);
    }

    // A snapshot in the worker thread, as the extension runs it: how long is the host thread blocked?
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const snapshotStarted = performance.now();
    const snapshot = await compactInWorker(options.workerPath, folder, options.wasmPath);
    const snapshotMs = performance.now() - snapshotStarted;
    delay.disable();
    await store.close();

    // The first turn of a fresh process, as a new window meets it: warmed at activation as the extension does, and cold.
    const firstWarm = firstTurnInFreshProcess(options.cliPath, folder, true);
    const firstCold = firstTurnInFreshProcess(options.cliPath, folder, false);
    options.log(firstTurnLine(firstWarm, firstCold));

    const perTurnMs = percentiles(perTurn);
    const naiveSaveMs = percentiles(naive);
    return {
      turns: options.turns,
      samples: perTurn.length,
      perTurnMs,
      perTurnPartsMs: Object.fromEntries(Object.entries(parts).map(([name, values]) => [name, percentiles(values)])),
      handlerToModelRequestMs: percentiles(toModel),
      firstTurnMs: round(firstWarm.firstTurnMs),
      firstTurnColdMs: round(firstCold.firstTurnMs),
      firstTurnWarmUpMs: round(firstWarm.warmUpMs),
      firstTurnLaterMs: round(firstWarm.laterTurnMs),
      confirmedFacts,
      idleIndexMs: percentiles(idleIndex),
      naiveSaveMs,
      speedupP50: round(naiveSaveMs.p50 / perTurnMs.p50),
      recallMs: percentiles(recall),
      recall: recallConversation,
      activationMs: round(activationMs),
      snapshotMs: round(snapshotMs),
      snapshotDone: snapshot.done,
      snapshotHostBlockMaxMs: round(delay.max / 1e6),
      storeBytes: statSync(storeLayout(folder).snapshot).size,
      captureMs: percentiles(capture.perMessageMs),
      captureSamples: capture.samples,
      captureLoadMs: round(capture.loadMs),
      captureLargeMs: { log: round(capture.largeMs.log), junk: round(capture.largeMs.junk), prose: round(capture.largeMs.prose) },
      teamFileMs: await benchTeamFile(options),
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** `bench-open`: the cold-open measurement, run by the benchmark in a fresh process (with --expose-gc for the RSS after GC). */
export async function measureOpen(folder: string, wasmPath: string, tokens: TokenCounter): Promise<OpenMeasure> {
  const collect = (): void => (globalThis as { gc?: () => void }).gc?.();
  collect();
  const rssBefore = process.memoryUsage().rss;
  const started = performance.now();
  const store = await MemoryStore.open({ folder, wasmPath, tokens, readOnly: true });
  const ms = performance.now() - started;
  const rssAfter = process.memoryUsage().rss;
  collect();
  const rssAfterGc = process.memoryUsage().rss;
  await store.close();
  const megabytes = (bytes: number): number => Math.round((bytes / 1048576) * 10) / 10;
  return { openMs: round(ms), rssBeforeMb: megabytes(rssBefore), rssAfterMb: megabytes(rssAfter), rssAfterGcMb: megabytes(rssAfterGc) };
}
