import type { Database } from 'sql.js';
import { bm25Term } from './bm25';
import { defaultLimits, gatherCandidates, type CandidateLimits } from './recallCandidates';
import { recallTerms, type RecallTerm } from './recallTerms';
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

/** How far a match lends weight to the turns beside it: an answer usually sits next to its question. */
const neighbourShare = 0.35;
/** Every hit in the same session lends this share: a conversation about the topic outranks a stray mention. */
const sessionShare = 0.15;
/** The best candidates (with the turns beside them) that are read whole and scored again over every term. */
const rescored = 80;

/**
 * The recall engine behind `recall_conversation` and `engram recall`. Candidates come from the rarest terms across
 * the whole index (recallCandidates.ts), however old. Each is scored by BM25, weighted by the share of the query's
 * information it holds (a turn with all the rare words before one with a few), and lifted by the turns beside it;
 * the best are read whole, scored again over every term, and lifted by their neighbours and their session. Recency
 * only breaks ties.
 */
export function recallConversation(db: Database, query: string, options: RecallOptions = {}): TurnHit[] {
  const k = options.k ?? 10;
  const { total, averageLength } = indexStatistics(db);
  const terms = recallTerms(db, query, total);
  if (terms.length === 0) return [];
  const candidates = gatherCandidates(db, terms, options.sessionId, options.limits ?? defaultLimits);
  if (candidates.size === 0) return [];
  const first = new Map<number, number>();
  for (const candidate of candidates.values()) first.set(candidate.rowid, score(candidate.hits, candidate.length, terms, averageLength));
  // Rowids rise as turns are recorded, so the rows beside a row are nearly always the turns beside it in its session.
  const near = (rowid: number): number => (first.get(rowid) ?? 0) + neighbourShare * ((first.get(rowid - 1) ?? 0) + (first.get(rowid + 1) ?? 0));
  const best = [...first.keys()].map((rowid) => [rowid, near(rowid)] as const).sort((a, b) => b[1] - a[1] || b[0] - a[0]).slice(0, rescored);
  const ranked = rescore(db, best.flatMap(([rowid]) => [rowid - 1, rowid, rowid + 1]), terms, averageLength);
  const hits: TurnHit[] = [];
  for (const hit of ranked) {
    if (options.sessionId && hit.session !== options.sessionId) continue;
    if (options.skip?.(hit)) continue;
    hits.push(hit);
    if (hits.length === k) break;
  }
  return hits;
}

/** BM25 over the terms, times the share of the query's idf the turn holds (all-term matches before any-term). */
function score(hits: ArrayLike<number>, length: number, terms: readonly RecallTerm[], averageLength: number): number {
  let sum = 0;
  let held = 0;
  let information = 0;
  for (let i = 0; i < terms.length; i++) {
    information += terms[i].idf;
    if (hits[i] === 0) continue;
    held += terms[i].idf;
    sum += bm25Term(terms[i].idf, hits[i], length, averageLength);
  }
  return information > 0 ? sum * (held / information) : 0;
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

/** Words as the index's unicode61 tokenizer splits them: lower case, diacritics removed, letters and digits. */
function indexWords(text: string): string[] {
  const folded = /^[\u0000-\u007f]*$/.test(text) ? text : text.normalize('NFKD').replace(/\p{M}/gu, '');
  return folded.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Reads the rows whole, scores each over every query term from its own words, then lifts each by its neighbours
 * (seq ± 1 in its session) and by the rest of its session: an answer right after a matching question comes back
 * even when it shares none of the words.
 */
function rescore(db: Database, rowids: readonly number[], terms: readonly RecallTerm[], averageLength: number): TurnHit[] {
  const wanted = [...new Set(rowids.filter((rowid) => rowid > 0))];
  if (wanted.length === 0) return [];
  const rows = db.exec(`SELECT rowid, id, ref, session_id, seq, role, text, at FROM turns WHERE rowid IN (${wanted.join(',')})`)[0]?.values ?? [];
  const read = rows.map(([rowid, id, ref, session, seq, role, text, at]) => {
    const words = indexWords(String(text));
    const hits = terms.map((term) => words.reduce((n, word) => n + (term.prefix ? (word.startsWith(term.word) ? 1 : 0) : word === term.word ? 1 : 0), 0));
    return {
      rowid: Number(rowid),
      seq: Number(seq),
      own: score(hits, words.length, terms, averageLength),
      hit: { id: String(id), ref: typeof ref === 'string' ? ref : undefined, session: String(session), role: role === 'assistant' ? ('assistant' as const) : ('user' as const), text: String(text), at: String(at), score: 0 },
    };
  });
  const bySeq = new Map(read.map((row) => [`${row.hit.session}\u0000${row.seq}`, row.own]));
  const sessionWeight = new Map<string, number>();
  for (const row of read) sessionWeight.set(row.hit.session, (sessionWeight.get(row.hit.session) ?? 0) + row.own);
  const scored = read.map((row) => {
    const at = (seq: number): number => bySeq.get(`${row.hit.session}\u0000${seq}`) ?? 0;
    const lifted = row.own + neighbourShare * (at(row.seq - 1) + at(row.seq + 1)) + sessionShare * ((sessionWeight.get(row.hit.session) ?? 0) - row.own);
    return { rowid: row.rowid, hit: { ...row.hit, score: Math.round(lifted * 1000) / 1000 } };
  });
  return scored.filter((row) => row.hit.score > 0).sort((a, b) => b.hit.score - a.hit.score || b.rowid - a.rowid).map((row) => row.hit);
}
