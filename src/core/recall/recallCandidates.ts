import type { Database, SqlValue } from 'sql.js';
import type { RecallTerm } from './recallTerms';

/**
 * A turn that matched, with how often each query term occurs in it. Its length is not read here: matchinfo's 'l'
 * costs a lookup in FTS4's docsize table per row (measured: twice the rest of the query); the best candidates are
 * scored again with their real length from their text.
 */
export interface Candidate {
  readonly rowid: number;
  /** Occurrences of each query term (same order as the terms), in this turn. */
  readonly hits: Uint32Array;
}

export interface CandidateLimits {
  /** Rows a query reads in full: the rarest terms are taken, every match of each, while their documents fit. */
  readonly enumerate: number;
  /** Rows read from a conjunction of common terms when no rarer term decides (the rows scored best are kept). */
  readonly common: number;
  /** Candidates that make a later, less selective step unnecessary. */
  readonly enough: number;
}

export const defaultLimits: CandidateLimits = { enumerate: 2500, common: 800, enough: 50 };

/**
 * Which turns are scored, chosen by how selective the query's terms are across the whole index, never by age:
 * 1. the rarest terms, taken while their documents fit `enumerate`: every turn that holds any of them, however old;
 * 2. when common terms remain: turns holding all of them, then turns holding any two (those with no rare term at
 *    all), at most `common` rows each.
 * Each row's matchinfo counts the terms of the step that found it; conversationRecall.ts scores the best again over
 * every term from their text. (matchinfo is read as hex text: sql.js copies a blob byte by byte in JavaScript, which
 * cost 10x the query itself. A second group carrying every term would give complete counts at once, but made FTS4
 * merge each doclist twice: 6x slower, measured.)
 */
export function gatherCandidates(db: Database, terms: readonly RecallTerm[], sessionId: string | undefined, limits: CandidateLimits = defaultLimits): Map<number, Candidate> {
  const found = new Map<number, Candidate>();
  if (terms.length === 0) return found;
  let budget = 0;
  let rare = 0;
  while (rare < terms.length && budget + terms[rare].documents <= limits.enumerate) budget += terms[rare++].documents;
  const indexes = terms.map((_, index) => index);
  const each = (phrases: readonly number[]): string => phrases.map((index) => terms[index].match).join(' OR ');
  const step = { db, found, termCount: terms.length, sessionId };
  if (rare > 0) collect(step, each(indexes.slice(0, rare)), indexes.slice(0, rare));
  const common = indexes.slice(rare);
  if (rare === 0 || common.length >= 2) {
    // A conjunction no larger than the enumeration budget is read whole, in the index's own order (FTS4 reads every
    // doclist of the expression again to walk it newest first: 2x the time, measured); only a larger one is cut to
    // its newest `common` rows.
    const conjunction = (phrases: readonly number[]): void => {
      const match = phrases.map((index) => terms[index].match).join(' ');
      const smallest = Math.min(...phrases.map((index) => terms[index].documents));
      collect(step, match, phrases, smallest <= limits.enumerate ? undefined : limits.common);
    };
    if (common.length >= 2) conjunction(common);
    // All-term matches before any-two matches: the pairs are read only when all the common words together were too
    // few, each pair on its own (one OR of them merged the same doclists again: 1.5x, measured).
    if (common.length >= 3 && found.size < limits.enough) for (const pair of pairsOf(common)) conjunction(pair);
    // Only one term, and a common one: its best-scoring rows among the newest `common` (nothing rarer can decide).
    if (common.length === 1) collect(step, terms[common[0]].match, common, limits.common);
  }
  return found;
}

function pairsOf<T>(items: readonly T[]): [T, T][] {
  const out: [T, T][] = [];
  for (let i = 0; i < items.length; i++) for (let j = i + 1; j < items.length; j++) out.push([items[i], items[j]]);
  return out;
}

interface Step {
  readonly db: Database;
  readonly found: Map<number, Candidate>;
  readonly termCount: number;
  readonly sessionId: string | undefined;
}

/**
 * Runs one MATCH and keeps its rows; `phraseTerms[i]` is the query term of the expression's i-th phrase. With a
 * `limit`, the newest rows are read and all of them scored.
 */
function collect(step: Step, match: string, phraseTerms: readonly number[], limit?: number): void {
  const bySession = step.sessionId ? ' AND docid IN (SELECT rowid FROM turns WHERE session_id = ?)' : '';
  const limited = limit === undefined ? '' : ` ORDER BY docid DESC LIMIT ${limit}`;
  const params: SqlValue[] = step.sessionId ? [match, step.sessionId] : [match];
  const statement = step.db.prepare(`SELECT docid, hex(matchinfo(turns_fts, 'y')) FROM turns_fts WHERE turns_fts MATCH ?${bySession}${limited}`);
  try {
    statement.bind(params);
    while (statement.step()) {
      const [docid, info] = statement.get();
      const rowid = Number(docid);
      const ints = hexInts(String(info));
      const known = step.found.get(rowid);
      const hits = known?.hits ?? new Uint32Array(step.termCount);
      for (let phrase = 0; phrase < phraseTerms.length; phrase++) hits[phraseTerms[phrase]] = Math.max(hits[phraseTerms[phrase]], ints[phrase]);
      if (!known) step.found.set(rowid, { rowid, hits });
    }
  } finally {
    statement.free();
  }
}

/** matchinfo's 32-bit integers (little-endian, as sql.js's WebAssembly stores them) from their hex text. */
export function hexInts(hex: string): Uint32Array {
  const count = hex.length >> 3;
  const ints = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const at = i << 3;
    const byte = (n: number): number => parseInt(hex.substr(at + 2 * n, 2), 16);
    ints[i] = (byte(0) | (byte(1) << 8) | (byte(2) << 16) | (byte(3) << 24)) >>> 0;
  }
  return ints;
}
