/**
 * BM25 from FTS4's matchinfo(table, 'pcnaly'): this sql.js has FTS4 but no bm25() (that is FTS5). 'y'
 * gives each phrase's hits in this row only; document frequencies come from the index's term statistics
 * (fts4aux), read once per query, because matchinfo's 'x' recomputes them over whole doclists per query.
 */

const k1 = 1.2;
const b = 0.75;

/** matchinfo returns 32-bit unsigned integers in the machine's byte order. */
export function matchinfoInts(blob: Uint8Array): Uint32Array {
  const copy = new Uint8Array(blob);
  return new Uint32Array(copy.buffer, 0, Math.floor(copy.byteLength / 4));
}

/** Inverse document frequency, never negative (the "+1" form), for a term found in `documents` of `rows`. */
export function idf(rows: number, documents: number): number {
  return Math.log(1 + (rows - documents + 0.5) / (documents + 0.5));
}

/**
 * Scores one row of a single-column FTS4 table from its 'pcnaly' matchinfo; `idfs[i]` belongs to the
 * i-th phrase of the MATCH expression.
 */
export function bm25FromMatchinfo(info: Uint32Array, idfs: readonly number[]): number {
  const phrases = info[0];
  const columns = info[1];
  const averageLength = info[3] || 1;
  const length = info[3 + columns] ?? 0;
  const hitsStart = 3 + 2 * columns;
  let score = 0;
  for (let phrase = 0; phrase < phrases; phrase++) {
    const termFrequency = info[hitsStart + phrase * columns];
    if (termFrequency === 0) continue;
    score += bm25Term(idfs[phrase], termFrequency, length, averageLength);
  }
  return score;
}

/** One term's BM25 share in a row of `length` tokens, where rows hold `averageLength` on average. */
export function bm25Term(termIdf: number, termFrequency: number, length: number, averageLength: number): number {
  return (termIdf * termFrequency * (k1 + 1)) / (termFrequency + k1 * (1 - b + (b * length) / averageLength));
}
