import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { mulberry32 as seededRandom } from '../core/eval/recallCorpus';
import type { TokenCounter } from '../core/shared/tokenCounter';
import { MemoryStore } from '../core/store/memoryStore';
import { percentiles } from './bench';
import { writeBenchCorpus } from './benchCorpus';
import { benchRecall, type RecallBench } from './benchRecall';

export interface RecallOnlyOptions {
  readonly turns: number;
  readonly wasmPath: string;
  readonly tokens: TokenCounter;
  /**
   * A folder that keeps the generated store between runs (`DIR/N-turns`): building a million turns takes many
   * minutes, asking 200 queries of it a few seconds. Without it the store is thrown away.
   */
  readonly cache?: string;
  readonly log: (line: string) => void;
}

/** The corpus's shape: a cached store is reused only when it was written by this generator for this N. */
const corpusVersion = 1;

/**
 * `bench --recall-only`: only the recall the user gets, beside native FTS5 in the same run, on the benchmark's
 * generated store of N turns (the same corpus and the same queries as the full benchmark's `recall`).
 */
export async function runRecallOnlyBench(options: RecallOnlyOptions): Promise<{ turns: number; corpusMs: number; openMs: number; recall: RecallBench }> {
  const folder = options.cache ? join(options.cache, `${options.turns}-turns`) : mkdtempSync(join(tmpdir(), 'engram-bench-recall-'));
  const stamp = join(folder, 'bench-corpus.json');
  try {
    const corpusStarted = performance.now();
    if (!options.cache || !cachedCorpusFits(stamp, options.turns)) {
      if (options.cache) rmSync(folder, { recursive: true, force: true });
      mkdirSync(folder, { recursive: true });
      await writeBenchCorpus(folder, options.wasmPath, options.turns);
      if (options.cache) writeFileSync(stamp, JSON.stringify({ version: corpusVersion, turns: options.turns }));
    }
    const corpusMs = Math.round(performance.now() - corpusStarted);
    options.log(`corpus of ${options.turns} turns ready in ${corpusMs} ms${options.cache ? ` (${folder})` : ''}`);
    const openStarted = performance.now();
    const store = await MemoryStore.open({ folder, wasmPath: options.wasmPath, tokens: options.tokens, readOnly: true });
    const openMs = Math.round(performance.now() - openStarted);
    try {
      // The full benchmark draws its recall queries after its turn loop; here the same generator, seeded alike.
      return { turns: options.turns, corpusMs, openMs, recall: benchRecall(store, seededRandom(7), 200, percentiles) };
    } finally {
      await store.close();
    }
  } finally {
    if (!options.cache) rmSync(folder, { recursive: true, force: true });
  }
}

function cachedCorpusFits(stamp: string, turns: number): boolean {
  if (!existsSync(stamp)) return false;
  try {
    const written = JSON.parse(readFileSync(stamp, 'utf8')) as { version?: unknown; turns?: unknown };
    return written.version === corpusVersion && written.turns === turns;
  } catch {
    return false;
  }
}
