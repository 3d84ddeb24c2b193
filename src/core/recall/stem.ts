/**
 * A light suffix stripper (not Porter): enough to let "deploying", "deployed" and "deployment" meet at
 * "deploy" through an FTS4 prefix query, which the index answers from the same doclists.
 */
const suffixes = ['ations', 'ation', 'ments', 'ment', 'ings', 'ing', 'edly', 'ed', 'ies', 'es', 's', 'ers', 'er', 'ly'];

export function stem(word: string): string {
  for (const suffix of suffixes) {
    if (word.length - suffix.length >= 4 && word.endsWith(suffix)) {
      const base = word.slice(0, -suffix.length);
      return suffix === 'ies' ? `${base}y` : base;
    }
  }
  return word;
}
