/** Key and value pairs, compared as findLive and wasRejected compare them (SQLite's lower() folds ASCII letters only). */
export class SettledValues {
  private readonly pairs = new Set<string>();

  constructor(rows: readonly { key: string; value: string }[]) {
    for (const row of rows) this.add(row.key, row.value);
  }

  private static pair(key: string, value: string): string {
    return `${key}\u0000${value.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())}`;
  }

  has(key: string, value: string): boolean {
    return this.pairs.has(SettledValues.pair(key, value));
  }

  add(key: string, value: string): void {
    this.pairs.add(SettledValues.pair(key, value));
  }
}
