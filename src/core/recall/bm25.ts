/**
 * BM25 from FTS4's matchinfo(table, 'pcnalx'): this sql.js has FTS4 but no bm25() (that is FTS5), so the
 * score is computed here from the counts SQLite hands back for each matching row.
 */

const k1 = 1.2;
const b = 0.75;

/** matchinfo returns 32-bit unsigned integers in the machine's byte order. */
export function matchinfoInts(blob: Uint8Array): Uint32Array {
  const copy = new Uint8Array(blob);
  return new Uint32Array(copy.buffer, 0, Math.floor(copy.byteLength / 4));
}

/** Scores one row of a single-column FTS4 table from its 'pcnalx' matchinfo. */
export function bm25FromMatchinfo(info: Uint32Array): number {
  const phrases = info[0];
  const columns = info[1];
  const rows = info[2];
  const averageLength = info[3] || 1;
  const length = info[3 + columns] ?? 0;
  const hitsStart = 3 + 2 * columns;
  let score = 0;
  for (let phrase = 0; phrase < phrases; phrase++) {
    const at = hitsStart + phrase * columns * 3;
    const termFrequency = info[at];
    const documentFrequency = info[at + 2];
    if (termFrequency === 0) continue;
    const idf = Math.log(1 + (rows - documentFrequency + 0.5) / (documentFrequency + 0.5));
    score += (idf * termFrequency * (k1 + 1)) / (termFrequency + k1 * (1 - b + (b * length) / averageLength));
  }
  return score;
}
