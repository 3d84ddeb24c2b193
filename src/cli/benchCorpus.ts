import { mulberry32 as seededRandom } from '../core/eval/recallCorpus';
import { migrate } from '../core/store/migrations';
import type { TurnOp } from '../core/store/operations';
import { insertTurns, uncountedTokens } from '../core/store/turnRepository';
import { installFirstGeneration } from '../core/store/generations';
import { loadSqlJs } from '../core/store/sqlJs';


const vocabulary = (
  'test hang promise timeout async await mocha fixture build webpack esbuild typescript module import export ' +
  'database query index migration schema sqlite journal snapshot lock worker thread memory cache latency ' +
  'docker container deploy kubernetes service endpoint request response header token auth session cookie ' +
  'react component state hook render props css layout flex grid button input form validation error stack ' +
  'python rust go java kotlin swift compiler linker debug breakpoint profiler flamegraph allocation leak ' +
  'refactor rename extract function class interface generic type inference union tuple enum record map set'
).split(' ');

/**
 * Words follow a Zipf-like law, as in real conversation: a few very common ones, a long tail of rare
 * ones (identifiers, names). A uniform small vocabulary would make every search match every turn.
 */
const syllables = 'ka lo mi ne ru sa ti vo ze pa qu ri do fe gu ha ji ke lu ma'.split(' ');
const tail = Array.from({ length: 8000 }, (_, i) => {
  let word = '';
  for (let n = i + 1; n > 0; n = Math.floor(n / syllables.length)) word += syllables[n % syllables.length];
  return word;
});
const lexicon = [...'the a to and of is it in that this for you with on i my not be are do'.split(' '), ...vocabulary, ...tail];

export function corpusSentence(random: () => number, words: number): string {
  const picked: string[] = [];
  for (let i = 0; i < words; i++) {
    // Inverse-transform sampling of rank ~ 1/r: rank = lexicon^u - 1 for u uniform in [0, 1).
    const rank = Math.min(lexicon.length - 1, Math.floor(Math.pow(lexicon.length, random()) - 1));
    picked.push(lexicon[rank]);
  }
  return picked.join(' ');
}

/**
 * Writes a store of `turns` turns (in sessions of 20) straight into a snapshot, in one transaction:
 * the benchmark measures the work per turn at that size, not the cost of getting there.
 */
export async function writeBenchCorpus(folder: string, wasmPath: string, turns: number): Promise<void> {
  const sql = await loadSqlJs(wasmPath);
  const db = new sql.Database();
  try {
    migrate(db);
    const random = seededRandom(42);
    const start = Date.parse('2026-01-01T00:00:00Z');
    // The import's path: one transaction per batch, statements prepared once, tokens counted when a prompt needs them.
    let batch: TurnOp[] = [];
    for (let i = 0; i < turns; i++) {
      const text = corpusSentence(random, 8 + Math.floor(random() * 40));
      batch.push({
        kind: 'turn',
        id: `bench-${i}`,
        sessionId: `bench-session-${Math.floor(i / 20)}`,
        role: i % 2 === 0 ? 'user' : 'assistant',
        text,
        at: new Date(start + i * 60_000).toISOString(),
        tokens: uncountedTokens,
        source: 'import',
      });
      if (batch.length === 5000 || i === turns - 1) {
        insertTurns(db, batch);
        batch = [];
      }
    }
    // One merge up front, as an idle-time optimise would leave a long-lived store.
    db.exec("INSERT INTO turns_fts (turns_fts) VALUES ('optimize')");
    installFirstGeneration(folder, db.export(), turns);
  } finally {
    db.close();
  }
}
