import type { Database, SqlValue } from 'sql.js';
import type { RecallTerm } from './recallTerms';

/**
 * A turn that matched, with the query terms it holds. Neither how often nor its length is read here (matchinfo's
 * 'y' and 'l' cost more than the doclists themselves, measured); the best candidates are scored again from their
 * text.
 */
export interface Candidate {
  readonly rowid: number;
  /** 1 for each query term (same order as the terms) this turn holds, as far as the steps that found it know. */
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
 * 1. the rarest terms, taken while their documents fit `enumerate`: every turn that holds any of them, however old,
 *    with how often each of those turns holds each common term;
 * 2. when common terms remain and the rare ones found fewer than `enough` turns: turns holding all the common terms,
 *    then turns holding any two (those with no rare term at all); a conjunction whose rarest term is in more than
 *    `enumerate` turns is cut to its newest `common` rows.
 * Each row knows the terms of the steps that found it; recallContext.ts scores the best again over every term from
 * their text.
 */
export function gatherCandidates(db: Database, terms: readonly RecallTerm[], sessionId: string | undefined, limits: CandidateLimits = defaultLimits): Map<number, Candidate> {
  const found = new Map<number, Candidate>();
  if (terms.length === 0) return found;
  let budget = 0;
  let rare = 0;
  while (rare < terms.length && budget + terms[rare].documents <= limits.enumerate) budget += terms[rare++].documents;
  const indexes = terms.map((_, index) => index);
  const step = { db, found, termCount: terms.length, sessionId };
  // Each rare term on its own, so every row says which it holds without matchinfo (an OR of them reads the same
  // doclists, but its rows would not say which).
  for (let index = 0; index < rare; index++) collectHolding(step, terms[index].match, [index]);
  const common = indexes.slice(rare);
  // Which common terms the rare terms' turns hold, counted: rows with a rare term and a common one, each doclist read
  // once. Without it a turn that holds every word ties with the thousand that hold only its rarest.
  if (rare > 0 && common.length > 0) {
    const either = (phrases: readonly number[]): string => phrases.map((index) => terms[index].match).join(' OR ');
    collectCounted(step, `(${either(indexes.slice(0, rare))}) (${either(common)})`, indexes);
  }
  if (rare === 0 || common.length >= 2) {
    // A conjunction no larger than the enumeration budget is read whole, in the index's own order (FTS4 reads every
    // doclist of the expression again to walk it newest first: 2x the time, measured); only a larger one is cut to
    // its newest `common` rows.
    const conjunction = (phrases: readonly number[]): void => {
      const match = phrases.map((index) => terms[index].match).join(' ');
      const smallest = Math.min(...phrases.map((index) => terms[index].documents));
      collectCounted(step, match, phrases, smallest <= limits.enumerate ? undefined : limits.common);
    };
    // With rare terms, the common ones' conjunction only adds turns that hold none of them: needed when the rare
    // terms found few turns (a word the answer never used), not when they found enough.
    if (common.length >= 2 && !(rare > 0 && found.size >= limits.enough)) conjunction(common);
    // All-term matches before any-two matches: the pairs are read only when all the common words together were too
    // few, each pair on its own (one OR of them merged the same doclists again: 1.5x, measured).
    if (common.length >= 3 && found.size < limits.enough) for (const pair of pairsOf(common)) conjunction(pair);
    // Only one term, and a common one: its best-scoring rows among the newest `common` (nothing rarer can decide).
    if (common.length === 1) collectHolding(step, terms[common[0]].match, common, limits.common);
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
 * Runs one MATCH whose every row holds all of `heldTerms` (one term, or a conjunction) and marks them in its rows.
 * Only docids are read, as one text: matchinfo cost about 1.5 us a row in sql.js and each row stepped into
 * JavaScript as much again, where FTS4 walks a doclist for a fraction of that. How often a term occurs in a turn
 * is left to the rescoring, which reads the best turns whole. With a `limit`, the newest rows are read.
 */
function collectHolding(step: Step, match: string, heldTerms: readonly number[], limit?: number): void {
  const bySession = step.sessionId ? ' AND docid IN (SELECT rowid FROM turns WHERE session_id = ?)' : '';
  const limited = limit === undefined ? '' : ` ORDER BY docid DESC LIMIT ${limit}`;
  const params: SqlValue[] = step.sessionId ? [match, step.sessionId] : [match];
  const statement = step.db.prepare(`SELECT group_concat(docid) FROM (SELECT docid FROM turns_fts WHERE turns_fts MATCH ?${bySession}${limited})`);
  try {
    statement.bind(params);
    const docids = statement.step() ? statement.get()[0] : null;
    if (typeof docids !== 'string') return;
    for (const docid of docids.split(',')) {
      const rowid = Number(docid);
      let hits = step.found.get(rowid)?.hits;
      if (!hits) step.found.set(rowid, { rowid, hits: (hits = new Uint32Array(step.termCount)) });
      for (const term of heldTerms) hits[term] = 1;
    }
  } finally {
    statement.free();
  }
}

/**
 * Runs one MATCH and counts each phrase in each row (matchinfo 'y', read as hex text: sql.js copies a blob byte by
 * byte in JavaScript); `phraseTerms[i]` is the query term of the expression's i-th phrase. For the steps whose rows
 * are few and must be told apart by how often they hold the words.
 */
function collectCounted(step: Step, match: string, phraseTerms: readonly number[], limit?: number): void {
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
      let hits = step.found.get(rowid)?.hits;
      if (!hits) step.found.set(rowid, { rowid, hits: (hits = new Uint32Array(step.termCount)) });
      for (let phrase = 0; phrase < phraseTerms.length; phrase++) hits[phraseTerms[phrase]] = Math.max(hits[phraseTerms[phrase]], ints[phrase]);
    }
  } finally {
    statement.free();
  }
}

/** matchinfo's 32-bit integers (little-endian, as sql.js's WebAssembly stores them) from their hex text. */
function hexInts(hex: string): Uint32Array {
  const count = hex.length >> 3;
  const ints = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    const at = i << 3;
    const byte = (n: number): number => parseInt(hex.substr(at + 2 * n, 2), 16);
    ints[i] = (byte(0) | (byte(1) << 8) | (byte(2) << 16) | (byte(3) << 24)) >>> 0;
  }
  return ints;
}
