import type { Database } from 'sql.js';
import { bm25FromMatchinfo, idf, matchinfoInts } from './bm25';
import { queryTerms } from './queryTerms';
import { stem } from './stem';
import { readTurnHit, type TurnHit } from './turnSearch';

export interface RecallOptions {
  readonly k?: number;
  readonly sessionId?: string;
}

/** How far a match lends weight to the turns beside it: an answer usually sits next to its question. */
const neighbourShare = 0.35;
/** Every hit in the same session lends this share: a conversation about the topic outranks a stray mention. */
const sessionShare = 0.15;
/** Matches scored at most; the most recent first (see turnSearch.ts). */
const maxCandidates = 3000;

/**
 * The recall engine behind `recall_conversation` and `engram recall`: BM25 over stemmed prefix terms
 * (so "deploying" finds "deployment"), then each turn's score lifted by its neighbours and its session,
 * and ties broken by recency.
 */
export function recallConversation(db: Database, query: string, options: RecallOptions = {}): TurnHit[] {
  const k = options.k ?? 10;
  const terms = [...new Set(queryTerms(query, 16).map(stem))];
  if (terms.length === 0) return [];
  const total = Number(db.exec('SELECT COUNT(*) FROM turns')[0]?.values[0]?.[0] ?? 0);
  // Document frequency of each prefix term: rare ones carry the score, near-universal ones are dropped.
  const frequency = new Map<string, number>();
  for (const term of terms) {
    const row = db.exec('SELECT COUNT(*) FROM turns_fts WHERE turns_fts MATCH ?', [`${term}*`])[0]?.values[0];
    frequency.set(term, Number(row?.[0] ?? 0));
  }
  const useful = terms
    .filter((term) => (frequency.get(term) ?? 0) > 0 && (frequency.get(term) ?? 0) <= Math.max(20, total * 0.2))
    .sort((a, b) => (frequency.get(a) ?? 0) - (frequency.get(b) ?? 0))
    .slice(0, 8);
  if (useful.length === 0) return [];
  const idfs = useful.map((term) => idf(total, frequency.get(term) ?? 0));
  const match = useful.map((term) => `${term.replace(/"/g, '')}*`).join(' OR ');
  const sql = options.sessionId
    ? `SELECT f.docid, matchinfo(turns_fts, 'pcnaly'), t.session_id, t.seq FROM turns_fts f JOIN turns t ON t.rowid = f.docid
       WHERE turns_fts MATCH ? AND t.session_id = ? ORDER BY f.docid DESC LIMIT ${maxCandidates}`
    : `SELECT f.docid, matchinfo(turns_fts, 'pcnaly'), t.session_id, t.seq FROM turns_fts f JOIN turns t ON t.rowid = f.docid
       WHERE turns_fts MATCH ? ORDER BY f.docid DESC LIMIT ${maxCandidates}`;
  const direct = new Map<number, { score: number; session: string; seq: number }>();
  const statement = db.prepare(sql);
  try {
    statement.bind(options.sessionId ? [match, options.sessionId] : [match]);
    while (statement.step()) {
      const [rowid, info, session, seq] = statement.get();
      direct.set(Number(rowid), { score: bm25FromMatchinfo(matchinfoInts(info as Uint8Array), idfs), session: String(session), seq: Number(seq) });
    }
  } finally {
    statement.free();
  }
  // Lift each candidate (and the turns beside a hit) by its neighbours and its session.
  const bySessionSeq = new Map<string, number>();
  const sessionWeight = new Map<string, number>();
  for (const hit of direct.values()) {
    bySessionSeq.set(`${hit.session}\u0000${hit.seq}`, hit.score);
    sessionWeight.set(hit.session, (sessionWeight.get(hit.session) ?? 0) + hit.score);
  }
  const scored = new Map<string, { session: string; seq: number; score: number }>();
  for (const hit of direct.values()) {
    for (const seq of [hit.seq - 1, hit.seq, hit.seq + 1]) {
      const key = `${hit.session}\u0000${seq}`;
      if (scored.has(key) || seq < 1) continue;
      const own = bySessionSeq.get(key) ?? 0;
      const neighbours = (bySessionSeq.get(`${hit.session}\u0000${seq - 1}`) ?? 0) + (bySessionSeq.get(`${hit.session}\u0000${seq + 1}`) ?? 0);
      const score = own + neighbourShare * neighbours + sessionShare * ((sessionWeight.get(hit.session) ?? 0) - own);
      scored.set(key, { session: hit.session, seq, score });
    }
  }
  const best = [...scored.values()].sort((a, b) => b.score - a.score || b.seq - a.seq).slice(0, k * 2);
  const hits: TurnHit[] = [];
  for (const candidate of best) {
    const hit = readTurnHit(db, 'session_id = ? AND seq = ?', [candidate.session, candidate.seq], Math.round(candidate.score * 1000) / 1000);
    if (hit) hits.push(hit);
    if (hits.length === k) break;
  }
  return hits;
}
