import type { Database } from 'sql.js';
import { bm25Term } from './bm25';
import type { RecallTerm } from './recallTerms';
import type { TurnHit } from './turnSearch';

/** Where an answer usually sits: right after its question, or two or three turns on (report, diagnosis, ask, fix). */
export const contextWindow = 3;
/** The share of the turns right beside a turn (seq ± 1 in its session) it borrows: the answer after a question. */
const besideShare = 0.5;
/** The share of the turns two and three away: the fix that follows the diagnosis that follows the report. */
const nearbyShare = 0.3;
/** The share of the best turn read from its conversation: a conversation about the topic outranks a stray mention. */
const sessionShare = 0.5;

interface ReadTurn {
  readonly rowid: number;
  readonly seq: number;
  readonly session: string;
  /** The turn's own score over every query term, from its text. */
  readonly own: number;
  /** Bit i set when the turn holds term i. */
  readonly held: number;
  readonly hit: TurnHit;
}

/**
 * Reads the best candidates and the turns up to `contextWindow` rows around each, scores each over every query term
 * from its own words, then ranks each by its conversation: its own score, a share of the turns around it and of the
 * best turn of its session, times the square of the share of the query's information that the turns around it hold
 * together. So the answer two turns after the report that names the rare thing outranks a hundred identical answers
 * about other things, and a turn that holds every word itself stays ahead of one that only borrows them.
 */
export function rankInContext(db: Database, best: readonly number[], terms: readonly RecallTerm[], averageLength: number): TurnHit[] {
  const wanted = new Set<number>();
  for (const rowid of best) for (let at = Math.max(1, rowid - contextWindow); at <= rowid + contextWindow; at++) wanted.add(at);
  if (wanted.size === 0) return [];
  const read = readTurns(db, [...wanted], terms, averageLength);
  const byRowid = new Map(read.map((turn) => [turn.rowid, turn]));
  const bestOfSession = new Map<string, number>();
  for (const turn of read) bestOfSession.set(turn.session, Math.max(bestOfSession.get(turn.session) ?? 0, turn.own));
  const information = terms.reduce((sum, term) => sum + term.idf, 0) || 1;
  const shareOf = (mask: number): number => {
    let held = 0;
    for (let i = 0; i < terms.length; i++) if (mask & (1 << i)) held += terms[i].idf;
    return held / information;
  };
  const scored = read.map((turn) => {
    let score = turn.own + sessionShare * (bestOfSession.get(turn.session) ?? 0);
    let held = turn.held;
    for (let distance = 1; distance <= contextWindow; distance++) {
      for (const beside of [byRowid.get(turn.rowid - distance), byRowid.get(turn.rowid + distance)]) {
        // Rows beside a row are its session's turns beside it unless two conversations were recorded interleaved.
        if (!beside || beside.session !== turn.session || Math.abs(beside.seq - turn.seq) !== distance) continue;
        score += (distance === 1 ? besideShare : nearbyShare) * beside.own;
        held |= beside.held;
      }
    }
    const share = shareOf(held);
    return { rowid: turn.rowid, hit: { ...turn.hit, score: Math.round(score * share * share * 1000) / 1000 } };
  });
  return scored.filter((row) => row.hit.score > 0).sort((a, b) => b.hit.score - a.hit.score || b.rowid - a.rowid).map((row) => row.hit);
}

function readTurns(db: Database, rowids: readonly number[], terms: readonly RecallTerm[], averageLength: number): ReadTurn[] {
  const rows = db.exec(`SELECT rowid, id, ref, session_id, seq, role, text, at FROM turns WHERE rowid IN (${rowids.join(',')})`)[0]?.values ?? [];
  return rows.map(([rowid, id, ref, session, seq, role, text, at]) => {
    const words = indexWords(String(text));
    const hits = new Uint32Array(terms.length);
    let held = 0;
    for (const word of words) {
      for (let i = 0; i < terms.length; i++) {
        const term = terms[i];
        if (term.prefix ? word.startsWith(term.word) : word === term.word) {
          hits[i]++;
          held |= 1 << i;
        }
      }
    }
    const hit: TurnHit = { id: String(id), ref: typeof ref === 'string' ? ref : undefined, session: String(session), role: role === 'assistant' ? 'assistant' : 'user', text: String(text), at: String(at), score: 0 };
    return { rowid: Number(rowid), seq: Number(seq), session: hit.session, own: turnScore(hits, words.length, terms, averageLength), held, hit };
  });
}

/** Words as the index's unicode61 tokenizer splits them: lower case, diacritics removed, letters and digits. */
function indexWords(text: string): string[] {
  const folded = /^[\u0000-\u007f]*$/.test(text) ? text : text.normalize('NFKD').replace(/\p{M}/gu, '');
  return folded.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** BM25 over the terms, times the share of the query's idf the turn holds (all-term matches before any-term). */
export function turnScore(hits: ArrayLike<number>, length: number, terms: readonly RecallTerm[], averageLength: number): number {
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
