import type { Database, SqlValue } from 'sql.js';
import { bm25FromMatchinfo, idf, matchinfoInts } from './bm25';
import { anyTermQuery, queryTerms } from './queryTerms';
import type { MemoryStore } from '../store/memoryStore';

export interface TurnHit {
  readonly id: string;
  readonly ref?: string;
  readonly session: string;
  readonly role: 'user' | 'assistant';
  readonly text: string;
  readonly at: string;
  readonly score: number;
}

export interface TurnSearchOptions {
  readonly k?: number;
  readonly sessionId?: string;
}

/**
 * Full-text search over turns, ranked by BM25 (the baseline the recall engine builds on). Scores are
 * computed from matchinfo alone; only the k best rows are read whole.
 */
export function searchTurnsBm25(db: Database, query: string, options: TurnSearchOptions = {}): TurnHit[] {
  const { terms, idfs } = selectiveTerms(db, queryTerms(query));
  if (terms.length === 0) return [];
  const k = options.k ?? 10;
  const sql = options.sessionId
    ? `SELECT turns_fts.docid, matchinfo(turns_fts, 'pcnaly') FROM turns_fts JOIN turns t ON t.rowid = turns_fts.docid
       WHERE turns_fts MATCH ? AND t.session_id = ? ORDER BY turns_fts.docid DESC LIMIT ?`
    : `SELECT docid, matchinfo(turns_fts, 'pcnaly') FROM turns_fts WHERE turns_fts MATCH ? ORDER BY docid DESC LIMIT ?`;
  const match = anyTermQuery(terms);
  const params: SqlValue[] = options.sessionId ? [match, options.sessionId, maxCandidates] : [match, maxCandidates];
  const best: { rowid: number; score: number }[] = [];
  const statement = db.prepare(sql);
  try {
    statement.bind(params);
    while (statement.step()) {
      const [rowid, info] = statement.get();
      const score = bm25FromMatchinfo(matchinfoInts(info as Uint8Array), idfs);
      if (best.length === k && score <= best[best.length - 1].score) continue;
      insertSorted(best, { rowid: Number(rowid), score }, k);
    }
  } finally {
    statement.free();
  }
  return best.map(({ rowid, score }) => readHit(db, rowid, score));
}

/**
 * Only the most recent matches are scored: the work of a search stays bounded however large the store
 * grows, and in a conversation, among equally good matches, the recent one is usually the one meant.
 */
const maxCandidates = 2000;

/** Terms found in more than this share of turns say little (their idf is near zero) and cost a full scan. */
const maxDocumentShare = 0.05;
/** The rarest terms carry the score; more only add rows to read. */
const maxTerms = 6;

/**
 * Keeps the query's informative terms, rarest first, using the index's own statistics (fts4aux). FTS4
 * computes matchinfo for every matching row, so a term in half the turns would make every search a scan.
 */
function selectiveTerms(db: Database, terms: readonly string[]): { terms: string[]; idfs: number[] } {
  if (terms.length === 0) return { terms: [], idfs: [] };
  const total = Number(db.exec('SELECT COUNT(*) FROM turns')[0]?.values[0]?.[0] ?? 0);
  const frequency = new Map<string, number>();
  const statement = db.prepare("SELECT documents FROM turns_terms WHERE term = ? AND col = '*'");
  try {
    for (const term of terms) {
      statement.bind([term]);
      frequency.set(term, statement.step() ? Number(statement.get()[0]) : 0);
      statement.reset();
    }
  } finally {
    statement.free();
  }
  const present = terms.filter((term) => (frequency.get(term) ?? 0) > 0);
  const sorted = present.sort((a, b) => (frequency.get(a) ?? 0) - (frequency.get(b) ?? 0));
  const selective = sorted.filter((term) => (frequency.get(term) ?? 0) <= Math.max(20, total * maxDocumentShare));
  // When every term is common, the rarest one still answers the question better than nothing.
  const chosen = (selective.length > 0 ? selective : sorted.slice(0, 1)).slice(0, maxTerms);
  return { terms: chosen, idfs: chosen.map((term) => idf(total, frequency.get(term) ?? 0)) };
}

function readHit(db: Database, rowid: number, score: number): TurnHit {
  const hit = readTurnHit(db, 'rowid = ?', [rowid], score);
  if (!hit) throw new Error(`turn row ${rowid} matched the index but is not in the table`);
  return hit;
}

/** One turn as a search hit, read by a condition on the turns table; undefined when no row matches. */
export function readTurnHit(db: Database, where: string, params: SqlValue[], score: number): TurnHit | undefined {
  const row = db.exec(`SELECT id, ref, session_id, role, text, at FROM turns WHERE ${where}`, params)[0]?.values[0];
  if (!row) return undefined;
  return {
    id: String(row[0]),
    ref: typeof row[1] === 'string' ? row[1] : undefined,
    session: String(row[2]),
    role: row[3] === 'assistant' ? 'assistant' : 'user',
    text: String(row[4]),
    at: String(row[5]),
    score,
  };
}

/** Keeps the k best sorted by score, highest first, without sorting every match. */
function insertSorted<T extends { score: number }>(best: T[], item: T, k: number): void {
  let at = best.length;
  while (at > 0 && best[at - 1].score < item.score) at--;
  best.splice(at, 0, item);
  if (best.length > k) best.pop();
}

/** Full-text search over every turn of a store, the index first brought up to date (FTS4, BM25). */
export function searchStoredTurns(store: MemoryStore, query: string, options: TurnSearchOptions = {}): TurnHit[] {
  store.indexPending();
  return store.read((db) => searchTurnsBm25(db, query, options));
}
