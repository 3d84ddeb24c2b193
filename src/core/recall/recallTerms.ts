import type { Database } from 'sql.js';
import { idf } from './bm25';
import { queryTerms } from './queryTerms';
import { stem } from './stem';

/** One informative term of a query, with what the whole index says about it. */
export interface RecallTerm {
  /** The term as the index's MATCH reads it: `deploy*` (a stem, any ending) or `"go"` (a short word, whole). */
  readonly match: string;
  /** The stem or word itself, and whether any word that starts with it counts. */
  readonly word: string;
  readonly prefix: boolean;
  /** Turns that hold it, over the whole index (fts4aux), however old. */
  readonly documents: number;
  readonly idf: number;
}

/** Terms scored per query at most, rarest first: more only add doclists to read. */
const maxTerms = 8;
/**
 * A stem shorter than this is matched as a whole word: `go*` would read the doclists of every word that starts
 * with "go" (goal, google, gone), which costs a scan and says little.
 */
const minPrefixLength = 4;

/**
 * Document counts already read, per database: fts4aux counts a term by walking its whole doclist with positions
 * (about a millisecond for a word in 10,000 turns at 100k, the largest share of a query's time), and a common word
 * comes back in query after query. A count is reused while the index holds between as many rows as when it was
 * read and 1 % more: a few new turns change an idf by a hundredth, and the candidate budget by as little. Any
 * shrinking (a forgotten conversation) reads it again.
 */
interface CountedTerms {
  readonly counts: Map<string, { readonly documents: number; readonly rows: number }>;
}
const counted = new WeakMap<Database, CountedTerms>();
/** Terms remembered per database before the memory starts again (a few hundred KB at most). */
const maxCounted = 20_000;
const staleGrowth = 0.01;

/**
 * The query's terms, stemmed, with their document frequencies from the index's own statistics (fts4aux), rarest
 * first. No term is dropped for being common: a common term still scores the turns the rare ones find; it only
 * never decides alone which turns are looked at (see recallCandidates.ts).
 */
export function recallTerms(db: Database, query: string, total: number): RecallTerm[] {
  const stems = [...new Set(queryTerms(query, 16).map(stem))];
  const terms: RecallTerm[] = [];
  const exact = db.prepare("SELECT documents FROM turns_terms WHERE col = '*' AND term = ?");
  // fts4aux counts a document once per term, so a range over a prefix overcounts a turn that holds two of its
  // words ("deploy" and "deployed"): an upper bound, which is what the candidate budget needs.
  const range = db.prepare("SELECT SUM(documents) FROM turns_terms WHERE col = '*' AND term >= ? AND term < ?");
  let memory = counted.get(db);
  if (!memory || memory.counts.size > maxCounted) counted.set(db, (memory = { counts: new Map() }));
  try {
    for (const term of stems) {
      const prefix = term.length >= minPrefixLength;
      const known = memory.counts.get(term);
      let documents: number;
      if (known && total >= known.rows && total <= known.rows * (1 + staleGrowth)) documents = Math.min(total, known.documents);
      else {
        const statement = prefix ? range : exact;
        statement.bind(prefix ? [term, `${term}\u{10FFFF}`] : [term]);
        documents = statement.step() ? Math.min(total, Number(statement.get()[0] ?? 0)) : 0;
        statement.reset();
        // A word no turn holds yet is never remembered: the next turn may hold it, and it must be found at once.
        if (documents > 0) memory.counts.set(term, { documents, rows: total });
      }
      if (documents === 0) continue;
      terms.push({ match: prefix ? `${term}*` : `"${term}"`, word: term, prefix, documents, idf: idf(total, documents) });
    }
  } finally {
    exact.free();
    range.free();
  }
  return terms.sort((a, b) => a.documents - b.documents).slice(0, maxTerms);
}
