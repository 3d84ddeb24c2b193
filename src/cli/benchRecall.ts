import { performance } from 'node:perf_hooks';
import type { MemoryStore } from '../core/store/memoryStore';
import { runRecall } from '../core/turn/memoryTools';
import { recallConversation } from '../core/recall/conversationRecall';
import { queryTerms } from '../core/recall/queryTerms';
import { loadNative, NativeTurnIndex } from './nativeFts5';

export interface RecallBench {
  readonly queries: number;
  /** The recall_conversation tool as a model calls it (sync, index, rank, read the turns, format). */
  readonly recallConversationMs: { readonly p50: number; readonly p99: number; readonly max: number };
  /** better-sqlite3 FTS5 (porter unicode61), every match of any query word ranked by bm25(), top 10 read. */
  readonly nativeFts5Ms?: { readonly p50: number; readonly p99: number; readonly max: number };
  /** Engram's time over native's, each percentile on its own, in this run. */
  readonly ratio?: { readonly p50: number; readonly p99: number };
  /** Share of queries whose source turn is in the top 10. */
  readonly sourceInTop10: { readonly engram: number; readonly native?: number };
  /** Mean share of native's top 10 that Engram's top 10 holds too. */
  readonly top10Overlap?: number;
  readonly nativeIndexMs?: number;
}

const k = 10;

/**
 * The recall the user gets, beside native FTS5 in the same run: queries of three words drawn from one stored turn
 * (the way a person half-remembers it), asked of both; the turn they came from should be in the top 10.
 */
export function benchRecall(store: MemoryStore, random: () => number, queries: number, percentiles: (samples: number[]) => { p50: number; p99: number; max: number }): RecallBench {
  const turns = store.read((db) => (db.exec('SELECT rowid, id, text FROM turns')[0]?.values ?? []).map(([rowid, id, text]) => ({ rowid: Number(rowid), id: String(id), text: String(text) })));
  const asked: { query: string; source: string }[] = [];
  while (asked.length < queries && turns.length > 0) {
    const turn = turns[Math.floor(random() * turns.length)];
    const words = queryTerms(turn.text, 64);
    if (words.length < 3) continue;
    const picked = new Set<string>();
    while (picked.size < 3) picked.add(words[Math.floor(random() * words.length)]);
    asked.push({ query: [...picked].join(' '), source: turn.id });
  }
  const Native = loadNative();
  const memory = { store, retiredBeliefs: () => [] };
  const engram = (query: string): string[] => runRecall(memory, { query, k }).retrieval.map((entry) => entry.memoryId);
  const sourceInTop10 = (tops: string[][]): number => round(asked.filter((q, i) => tops[i].includes(q.source)).length / Math.max(1, asked.length));
  const indexStarted = performance.now();
  const native = Native ? NativeTurnIndex.open(Native) : undefined;
  try {
    native?.add(turns.map((turn) => ({ text: turn.text, ref: turn.id })));
    const nativeIndexMs = performance.now() - indexStarted;
    // Warm both engines (V8 and SQLite's page cache) before anything is timed.
    for (const { query } of asked.slice(0, 10)) {
      store.read((db) => recallConversation(db, query, { k }));
      native?.turns(query, k);
    }
    // Each query is asked of both, one right after the other, so the load of a shared machine weighs on both alike.
    const engramMs: number[] = [];
    const nativeMs: number[] = [];
    const engramTop: string[][] = [];
    const nativeTop: string[][] = [];
    for (const { query } of asked) {
      let started = performance.now();
      engramTop.push(engram(query));
      engramMs.push(performance.now() - started);
      if (!native) continue;
      started = performance.now();
      const hits = native.turns(query, k);
      nativeMs.push(performance.now() - started);
      nativeTop.push(hits.map((hit) => hit.ref ?? ''));
    }
    const ours = percentiles(engramMs);
    if (!native) return { queries: asked.length, recallConversationMs: ours, sourceInTop10: { engram: sourceInTop10(engramTop) } };
    const theirs = percentiles(nativeMs);
    const overlap = asked.reduce((sum, _, i) => sum + nativeTop[i].filter((id) => engramTop[i].includes(id)).length / Math.max(1, nativeTop[i].length), 0) / Math.max(1, asked.length);
    return {
      queries: asked.length,
      recallConversationMs: ours,
      nativeFts5Ms: theirs,
      ratio: { p50: round(ours.p50 / theirs.p50), p99: round(ours.p99 / theirs.p99) },
      sourceInTop10: { engram: sourceInTop10(engramTop), native: sourceInTop10(nativeTop) },
      top10Overlap: round(overlap),
      nativeIndexMs: Math.round(nativeIndexMs),
    };
  } finally {
    native?.close();
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
