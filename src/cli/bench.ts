import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { TokenCounter } from '../core/shared/tokenCounter';
import { compactInWorker } from '../core/store/compactInWorker';
import { JournalWriter } from '../core/store/journal';
import { MemoryStore } from '../core/store/memoryStore';
import { searchStoredTurns } from '../core/recall/turnSearch';
import { writeFileAtomically } from '../core/store/snapshotFile';
import { storeLayout } from '../core/store/storeLayout';
import { mulberry32 as seededRandom } from '../core/eval/recallCorpus';
import { corpusSentence, writeBenchCorpus } from './benchCorpus';

export interface BenchOptions {
  readonly turns: number;
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

function percentiles(samples: number[]): Percentiles {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number => round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0);
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: round(sorted[sorted.length - 1] ?? 0) };
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/**
 * Measures, in one run on a throw-away store of N turns (never the user's): the memory work one chat turn
 * does on the extension host thread, a naive save-per-turn beside it, recall latency, cold open, and how
 * long a snapshot in the worker blocks the host thread.
 */
export async function runBench(options: BenchOptions): Promise<Record<string, unknown>> {
  const folder = mkdtempSync(join(tmpdir(), 'engram-bench-'));
  try {
    const setupStarted = performance.now();
    await writeBenchCorpus(folder, options.wasmPath, options.turns, options.tokens);
    options.log(`corpus of ${options.turns} turns written in ${Math.round(performance.now() - setupStarted)} ms`);

    // Cold open in a fresh process: sql.js's wasm compiled from scratch, snapshot read, journals replayed.
    const coldOpen = spawnSync(process.execPath, [options.cliPath, 'bench-open', '--db', folder], { encoding: 'utf8' });
    const activationMs = Number(/openMs=([\d.]+)/.exec(coldOpen.stdout)?.[1] ?? NaN);

    // The search index is brought up to date at quiet moments; here every 10 turns, timed apart (idleIndexMs).
    const store = await MemoryStore.open({ folder, wasmPath: options.wasmPath, tokens: options.tokens, indexDelayMs: 3_600_000 });
    const idleIndex: number[] = [];
    const otherWindow = JournalWriter.create(folder, () => undefined);
    const random = seededRandom(7);
    const sessionId = 'bench-live';
    const perTurn: number[] = [];
    const parts = { recordUser: [] as number[], readOthers: [] as number[], retrieval: [] as number[], assembly: [] as number[], recordAssistant: [] as number[] };
    const warmup = 20;
    for (let i = 0; i < warmup + options.samples; i++) {
      if (i % 5 === 0) {
        const text = corpusSentence(random, 20);
        await otherWindow.append({ kind: 'turn', id: `other-${i}`, sessionId: 'other-window', role: 'user', text, at: new Date().toISOString(), tokens: options.tokens.count(text), source: 'chat' });
      }
      const userText = corpusSentence(random, 12);
      const replyText = corpusSentence(random, 60);
      const t0 = performance.now();
      store.syncFromOtherWriters();
      const t1 = performance.now();
      store.recordTurn({ sessionId, role: 'user', text: userText });
      const t2 = performance.now();
      store.contextReads(sessionId);
      const t3 = performance.now();
      const recent = store.recentTurns(sessionId, 40);
      recent.reduce((sum, turn) => sum + turn.tokens, 0);
      const t4 = performance.now();
      store.recordTurn({ sessionId, role: 'assistant', text: replyText });
      const t5 = performance.now();
      // The journal's fdatasync runs on the thread pool while the reply streams; it is not host-thread time.
      await store.flush();
      if (i % 10 === 9) {
        const started = performance.now();
        store.indexPending();
        if (i >= warmup) idleIndex.push(performance.now() - started);
      }
      if (i < warmup) continue;
      perTurn.push(t5 - t0);
      parts.readOthers.push(t1 - t0);
      parts.recordUser.push(t2 - t1);
      parts.retrieval.push(t3 - t2);
      parts.assembly.push(t4 - t3);
      parts.recordAssistant.push(t5 - t4);
    }
    await otherWindow.close();

    // A recall_conversation call: on demand, when the model asks, so measured apart from the per-turn work.
    const recall: number[] = [];
    for (let i = 0; i < 200; i++) {
      const query = corpusSentence(random, 6);
      const t0 = performance.now();
      searchStoredTurns(store, query, { k: 10 });
      recall.push(performance.now() - t0);
    }

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

    const perTurnMs = percentiles(perTurn);
    const naiveSaveMs = percentiles(naive);
    return {
      turns: options.turns,
      samples: perTurn.length,
      perTurnMs,
      perTurnPartsMs: Object.fromEntries(Object.entries(parts).map(([name, values]) => [name, percentiles(values)])),
      idleIndexMs: percentiles(idleIndex),
      naiveSaveMs,
      speedupP50: round(naiveSaveMs.p50 / perTurnMs.p50),
      recallMs: percentiles(recall),
      activationMs: round(activationMs),
      snapshotMs: round(snapshotMs),
      snapshotDone: snapshot.done,
      snapshotHostBlockMaxMs: round(delay.max / 1e6),
      storeBytes: statSync(storeLayout(folder).snapshot).size,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** `bench-open`: the cold-open measurement, run by the benchmark in a fresh process. */
export async function measureOpen(folder: string, wasmPath: string, tokens: TokenCounter): Promise<number> {
  const started = performance.now();
  const store = await MemoryStore.open({ folder, wasmPath, tokens, readOnly: true });
  const ms = performance.now() - started;
  await store.close();
  return ms;
}
