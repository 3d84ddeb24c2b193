import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { VectorIndex } from './vectorIndex';

/**
 * Turn vectors, kept outside sql.js (a vector column would make the database 411 MB at 100k turns): one
 * append-only `.f32` file per writer, like the journals, so two windows never append to the same file. Every
 * window reads every file; only the owner appends to its own, and removal flags a record in place.
 */
export class VectorMemory {
  private readonly indexes = new Map<string, VectorIndex>();
  private dims: number | undefined;

  constructor(
    private readonly folder: string,
    private readonly writerName: string,
  ) {}

  private vectorFolder(): string {
    return join(this.folder, 'vectors');
  }

  /** Opens every writer's file of this dimension (a file of another dimension belongs to another model: skipped). */
  private open(dims: number): void {
    if (this.dims === dims) return;
    for (const index of this.indexes.values()) index.close();
    this.indexes.clear();
    this.dims = dims;
    const folder = this.vectorFolder();
    if (!existsSync(folder)) return;
    for (const name of readdirSync(folder).filter((file) => file.endsWith(`.${dims}.f32`))) {
      try {
        this.indexes.set(name, VectorIndex.open(join(folder, name), dims));
      } catch {
        // Damaged or foreign: vectors can always be computed again, the turns are in the store.
      }
    }
  }

  private own(dims: number): VectorIndex {
    this.open(dims);
    const name = `${this.writerName}.${dims}.f32`;
    let index = this.indexes.get(name);
    if (!index) {
      mkdirSync(this.vectorFolder(), { recursive: true });
      index = VectorIndex.open(join(this.vectorFolder(), name), dims);
      this.indexes.set(name, index);
    }
    return index;
  }

  add(entries: readonly { key: string; vector: readonly number[] }[]): void {
    for (const { key, vector } of entries) this.own(vector.length).add(key, vector);
  }

  search(query: readonly number[], k: number): { key: string; score: number }[] {
    this.open(query.length);
    const hits = [...this.indexes.values()].flatMap((index) => index.search(query, k));
    return hits.sort((a, b) => b.score - a.score).slice(0, k);
  }

  /** The deletion seam's part outside sql.js: forgotten turns leave every writer's file. */
  remove(keys: readonly string[]): number {
    if (this.dims === undefined) {
      const folder = this.vectorFolder();
      const first = existsSync(folder) ? readdirSync(folder).find((file) => file.endsWith('.f32')) : undefined;
      const dims = first ? Number(first.split('.').at(-2)) : NaN;
      if (!Number.isInteger(dims)) return 0;
      this.open(dims);
    }
    let removed = 0;
    for (const index of this.indexes.values()) removed += index.remove(keys);
    return removed;
  }

  close(): void {
    for (const index of this.indexes.values()) index.close();
    this.indexes.clear();
  }
}

/** Reciprocal-rank fusion of two rankings: agreement between words and meaning lifts a turn; k=60 as is usual. */
export function fuseRankings(first: readonly string[], second: readonly string[], k = 60): string[] {
  const score = new Map<string, number>();
  for (const ranking of [first, second]) ranking.forEach((id, rank) => score.set(id, (score.get(id) ?? 0) + 1 / (k + rank + 1)));
  return [...score.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);
}
