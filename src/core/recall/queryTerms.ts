/**
 * Turns free text into FTS4 query terms: lower-cased words, FTS syntax removed (user text must never be
 * read as query operators), common words dropped, at most `limit` terms.
 */

const stopWords = new Set(
  (
    'a an and are as at be but by can could did do does for from had has have how i if in into is it its just me my no not of on or ' +
    'our so that the their them then there these they this to too up us was we were what when where which who why will with would you your'
  ).split(' '),
);

export function queryTerms(text: string, limit = 12): string[] {
  // Split as the index splits (unicode61: letters and digits; `_` separates), so a term is always one index token.
  return pickTerms(text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? [], limit);
}

/** Words as typed, `snake_case_name` whole: for searching plain text (summaries), where no index splits them. */
export function queryWords(text: string, limit = 12): string[] {
  return pickTerms(text.toLowerCase().normalize('NFKC').match(/[\p{L}\p{N}_]+/gu) ?? [], limit);
}

function pickTerms(words: readonly string[], limit: number): string[] {
  const terms: string[] = [];
  for (const word of words) {
    if (word.length < 2 || stopWords.has(word) || terms.includes(word)) continue;
    terms.push(word);
    if (terms.length === limit) break;
  }
  return terms;
}

/** An FTS4 MATCH expression that finds rows with any of the terms; each term is quoted, so it is only ever a word. */
export function anyTermQuery(terms: readonly string[]): string {
  return terms.map((term) => `"${term.replace(/"/g, '')}"`).join(' OR ');
}
