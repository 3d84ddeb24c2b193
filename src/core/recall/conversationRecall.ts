import type { Database } from 'sql.js';
import { defaultLimits, gatherCandidates, type CandidateLimits } from './recallCandidates';
import { contextWindow, rankInContext, turnScore } from './recallContext';
import { recallTerms } from './recallTerms';
import type { TurnHit } from './turnSearch';

export interface RecallOptions {
  readonly k?: number;
  readonly sessionId?: string;
  /**
   * Turns never returned (this turn's message, the turns already in the prompt, Engram's own tool answers): they
   * are passed over before the best k are chosen, so they cost no place in the result.
   */
  readonly skip?: (hit: TurnHit) => boolean;
  /** How many rows the candidate steps read (tests and the benchmark vary them). */
  readonly limits?: CandidateLimits;
}

/** The share of the turns right beside a candidate that it borrows before the cut. */
const besideShare = 0.5;
/** The share of the turns two and three away that it borrows before the cut. */
const nearbyShare = 0.15;
/**
 * The best candidates whose turns, and the turns around them, are read whole and scored again over every term. With
 * at most two copies of one text among them, 10 find as much as 20 did without that rule, at half the rows read.
 */
const rescored = 10;
/** How many times `rescored` candidates have their length read before the cut. */
const lengthsRead = 12;

/**
 * The recall engine behind `recall_conversation` and `engram recall`. Candidates come from the rarest terms across
 * the whole index (recallCandidates.ts), however old. Each is scored by BM25, weighted by the share of the query's
 * information it holds (a turn with all the rare words before one with a few), and lifted by the turns up to three
 * rows away, so that of many identical answers the one whose conversation holds the rare word comes first; the best
 * are read whole with the turns around them and ranked by their conversation (recallContext.ts). Recency only breaks
 * ties.
 */
export function recallConversation(db: Database, query: string, options: RecallOptions = {}): TurnHit[] {
  const k = options.k ?? 10;
  const { total, averageLength } = indexStatistics(db);
  const terms = recallTerms(db, query, total);
  if (terms.length === 0) return [];
  const candidates = gatherCandidates(db, terms, options.sessionId, options.limits ?? defaultLimits);
  if (candidates.size === 0) return [];
  // Every candidate is scored as of average length first; the best few are scored again with their own length (where
  // hundreds hold the same words, the shorter turns, where the words weigh more, must reach the rescoring, not the
  // newest), and only then cut.
  const first = new Map<number, number>();
  for (const candidate of candidates.values()) first.set(candidate.rowid, turnScore(candidate.hits, averageLength, terms, averageLength));
  const leading = bestLifted(first, lengthsRead * rescored);
  const lengths = turnLengths(db, leading);
  for (const rowid of leading) first.set(rowid, turnScore(candidates.get(rowid)?.hits ?? [], lengths.get(rowid) ?? averageLength, terms, averageLength));
  const best = fewCopies(bestLifted(first, leading.length, leading), first, rescored);
  const ranked = rankInContext(db, best, terms, averageLength);
  const hits: TurnHit[] = [];
  // A year of history says the same thing many times ("Thanks, that worked.", one fix given for ten services): each
  // text is returned once, at its best place, so copies never push out the turns that say something else.
  const shown = new Set<string>();
  for (const hit of ranked) {
    if (options.sessionId && hit.session !== options.sessionId) continue;
    if (options.skip?.(hit)) continue;
    const text = hit.text.trim().replace(/\s+/g, ' ').toLowerCase();
    if (shown.has(text)) continue;
    shown.add(text);
    hits.push(hit);
    if (hits.length === k) break;
  }
  return hits;
}

/**
 * The `count` candidates (of `among`, or all) that score best with a share of the candidates up to `contextWindow`
 * rows away: rowids rise as turns are recorded, so the rows beside a row are nearly always the turns beside it in
 * its session. Ties go to the newer.
 */
function bestLifted(first: ReadonlyMap<number, number>, count: number, among: Iterable<number> = first.keys()): number[] {
  const around = (rowid: number, distance: number): number => (first.get(rowid - distance) ?? 0) + (first.get(rowid + distance) ?? 0);
  const lifted = (rowid: number): number => {
    let score = (first.get(rowid) ?? 0) + besideShare * around(rowid, 1);
    for (let distance = 2; distance <= contextWindow; distance++) score += nearbyShare * around(rowid, distance);
    return score;
  };
  return [...among].map((rowid) => [rowid, lifted(rowid)] as const).sort((a, b) => b[1] - a[1] || b[0] - a[0]).slice(0, count).map(([rowid]) => rowid);
}

/** Candidates that score exactly alike with their own length are nearly always copies of one text. */
const copiesRead = 2;

/**
 * The first `count` of `ranked`, with at most `copiesRead` of any one own score: thirty copies of one answer would
 * otherwise take every place that is read in context, and the turn that says something else would never be read.
 */
function fewCopies(ranked: readonly number[], own: ReadonlyMap<number, number>, count: number): number[] {
  const seen = new Map<number, number>();
  const kept: number[] = [];
  for (const rowid of ranked) {
    const score = own.get(rowid) ?? 0;
    const copies = seen.get(score) ?? 0;
    if (copies >= copiesRead) continue;
    seen.set(score, copies + 1);
    kept.push(rowid);
    if (kept.length === count) break;
  }
  return kept;
}

/**
 * Turns in the index and their mean length in tokens, from FTS4's own statistics row (two varints: rows, then tokens
 * of the one column): one lookup where COUNT(*) walked the whole table (7 ms at 100k).
 */
function indexStatistics(db: Database): { total: number; averageLength: number } {
  const hex = db.exec('SELECT hex(value) FROM turns_fts_stat WHERE id = 0')[0]?.values[0]?.[0];
  if (typeof hex !== 'string') return { total: 0, averageLength: 1 };
  const [total, tokens] = varints(hex, 2);
  return { total, averageLength: total > 0 ? tokens / total || 1 : 1 };
}

/**
 * Each turn's length in index tokens, from FTS4's docsize table in one query: where hundreds of turns hold the same
 * words, the shorter ones (where the words weigh more) must reach the rescoring, not the newest. (matchinfo's 'l'
 * reads the same rows one lookup per row stepped into JavaScript: 4x the time, measured.)
 */
function turnLengths(db: Database, rowids: readonly number[]): Map<number, number> {
  const lengths = new Map<number, number>();
  if (rowids.length === 0) return lengths;
  const listed = db.exec(`SELECT group_concat(docid || ':' || hex(size)) FROM turns_fts_docsize WHERE docid IN (${rowids.join(',')})`)[0]?.values[0]?.[0];
  if (typeof listed !== 'string') return lengths;
  for (const entry of listed.split(',')) {
    const colon = entry.indexOf(':');
    lengths.set(Number(entry.slice(0, colon)), varints(entry.slice(colon + 1), 1)[0] ?? 0);
  }
  return lengths;
}

/** SQLite's varints (7 bits a byte, high bit set on all but the last), the first `count` of them, from hex text. */
function varints(hex: string, count: number): number[] {
  const values: number[] = [];
  let value = 0;
  let scale = 1;
  for (let at = 0; at + 1 < hex.length && values.length < count; at += 2) {
    const byte = parseInt(hex.slice(at, at + 2), 16);
    value += (byte & 0x7f) * scale;
    scale *= 128;
    if ((byte & 0x80) === 0) {
      values.push(value);
      value = 0;
      scale = 1;
    }
  }
  return values;
}
