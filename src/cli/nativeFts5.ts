import type { IndexedEngine } from '../core/eval/scaleEval';
import { queryTerms } from '../core/recall/queryTerms';

/** The part of better-sqlite3 this comparison uses. */
interface NativeDatabase {
  exec(sql: string): void;
  prepare(sql: string): { run(...values: unknown[]): void; all(...values: unknown[]): Record<string, unknown>[] };
  transaction(work: () => void): () => void;
  close(): void;
}

type NativeConstructor = new (file: string) => NativeDatabase;

/**
 * Native SQLite FTS5 (better-sqlite3, a development dependency): `porter unicode61`, every match of any query term
 * ranked by `bm25()`. The yardstick beside Engram's recall; absent from an installed extension, so loaded on demand.
 */
export function loadNative(): NativeConstructor | undefined {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require('better-sqlite3') as NativeConstructor;
  } catch {
    return undefined;
  }
}

/** The FTS5 query for the same words Engram reads from a query: any of them, each quoted (never an operator). */
export function nativeMatch(query: string): string {
  return queryTerms(query, 16).map((term) => `"${term}"`).join(' OR ');
}

/** An in-memory FTS5 index of turns (text and ref), searched by bm25 over every match. */
export class NativeTurnIndex {
  private readonly search: ReturnType<NativeDatabase['prepare']>;

  constructor(private readonly db: NativeDatabase) {
    db.exec("CREATE VIRTUAL TABLE turns USING fts5(text, ref UNINDEXED, tokenize = 'porter unicode61')");
    this.search = db.prepare('SELECT ref, text FROM turns WHERE turns MATCH ? ORDER BY bm25(turns) LIMIT ?');
  }

  static open(Native: NativeConstructor, file = ':memory:'): NativeTurnIndex {
    return new NativeTurnIndex(new Native(file));
  }

  add(turns: readonly { readonly text: string; readonly ref?: string }[]): void {
    const insert = this.db.prepare('INSERT INTO turns (text, ref) VALUES (?, ?)');
    this.db.transaction(() => {
      for (const turn of turns) insert.run(turn.text, turn.ref ?? null);
    })();
  }

  /** The k best turns, their text read as Engram's are. */
  turns(query: string, k: number): { ref?: string; text: string }[] {
    const match = nativeMatch(query);
    if (!match) return [];
    return this.search.all(match, k).map((row) => ({ ref: typeof row.ref === 'string' ? row.ref : undefined, text: String(row.text) }));
  }

  refs(query: string, k: number): (string | undefined)[] {
    return this.turns(query, k).map((turn) => turn.ref);
  }

  close(): void {
    this.db.close();
  }
}

/** The native index as an engine of the scale benchmark. */
export function nativeEngine(Native: NativeConstructor): IndexedEngine {
  return {
    build(turns) {
      const index = NativeTurnIndex.open(Native);
      index.add(turns);
      return { search: (query, k) => index.refs(query, k), close: () => index.close() };
    },
  };
}
