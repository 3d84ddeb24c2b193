import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { VectorIndex } from './vectorIndex';

/** Median timings of the vector index, in milliseconds. */
export interface VectorBenchResult {
  /** One durable add (write + fdatasync). */
  readonly appendMsP50: number;
  /** One top-10 search over every vector: scoring plus the small heap. */
  readonly searchMsP50: number;
  /** The same search done the naive way: scoring, then sorting all the scores. */
  readonly fullSortMsP50: number;
}

const searchRuns = 21;
const topK = 10;

/**
 * Fills a fresh vector file in a temporary folder under `folder` with `count` random `dims`-value
 * vectors, times the appends and then top-k searches against a full sort, and deletes what it wrote.
 * Synchronous and slow at scale (every append is fdatasync'ed): run it from `engram bench`, not a window.
 */
export function benchVectorIndex(folder: string, count: number, dims: number): VectorBenchResult {
  const workFolder = mkdtempSync(join(folder, 'engram-vector-bench-'));
  const index = VectorIndex.open(join(workFolder, 'vectors.f32'), dims);
  try {
    const random = seededRandom(0x5eed);
    // A copy for the naive search, normalised as the index stores them, so both compute the same scores.
    const copies = new Float32Array(count * dims);
    const appendMs: number[] = [];
    const vector = new Float32Array(dims);
    for (let n = 0; n < count; n++) {
      fillRandomUnit(vector, random);
      copies.set(vector, n * dims);
      const key = `turn:${randomUUID()}`;
      const started = performance.now();
      index.add(key, vector);
      appendMs.push(performance.now() - started);
    }

    const searchMs: number[] = [];
    const fullSortMs: number[] = [];
    const query = new Float32Array(dims);
    for (let run = 0; run < searchRuns; run++) {
      fillRandomUnit(query, random);
      let started = performance.now();
      const hits = index.search(query, topK);
      searchMs.push(performance.now() - started);

      started = performance.now();
      const scores = new Float64Array(count);
      for (let n = 0, base = 0; n < count; n++, base += dims) {
        let dot = 0;
        for (let i = 0; i < dims; i++) dot += query[i] * copies[base + i];
        scores[n] = dot;
      }
      const order = Array.from(scores.keys()).sort((a, b) => scores[b] - scores[a]);
      fullSortMs.push(performance.now() - started);
      // Guards the comparison: both ways must find the same best vector, or the timings mean nothing.
      if (count > 0 && !(Math.abs(hits[0].score - scores[order[0]]) < 1e-5)) throw new Error('The heap search and the full sort disagree');
    }
    return { appendMsP50: median(appendMs), searchMsP50: median(searchMs), fullSortMsP50: median(fullSortMs) };
  } finally {
    index.close();
    rmSync(workFolder, { recursive: true, force: true });
  }
}

/** Fills `into` with a random unit vector. */
function fillRandomUnit(into: Float32Array, random: () => number): void {
  let sumOfSquares = 0;
  for (let i = 0; i < into.length; i++) {
    into[i] = random() * 2 - 1;
    sumOfSquares += into[i] * into[i];
  }
  const norm = Math.sqrt(sumOfSquares);
  for (let i = 0; i < into.length; i++) into[i] /= norm;
}

/** mulberry32: seeded, so two runs time the same data. */
function seededRandom(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
