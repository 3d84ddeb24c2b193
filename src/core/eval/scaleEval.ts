import type { Database } from 'sql.js';
import { migrate } from '../store/migrations';
import { loadSqlJs } from '../store/sqlJs';
import { generateRecallCorpus, type RecallCorpus, type RecallCorpusTurn } from './recallCorpus';
import { generateDistractors } from './recallDistractors';
import type { RecallEngine } from './recallEval';

/** An engine with its own index (native FTS5): built once per store size from the same turns, then asked the same questions. */
export interface IndexedEngine {
  build(turns: readonly RecallCorpusTurn[]): { search(query: string, k: number): readonly (string | undefined)[]; close(): void };
}

export interface ScalePoint {
  /** Newer distractor turns stored after the planted ones. */
  readonly newer: number;
  readonly turns: number;
  /** recall@10 of each engine: the share of questions with an evidence turn among its first 10 results. */
  readonly recallAt10: Record<string, number>;
  /** Mean milliseconds per question, per engine (one run, on this machine). */
  readonly meanMs: Record<string, number>;
}

export interface ScaleEvalOptions {
  readonly wasmPath: string;
  readonly sizes: readonly number[];
  readonly engines: Record<string, RecallEngine>;
  readonly indexed?: Record<string, IndexedEngine>;
  /** Default: the generated corpus for seed 7. */
  readonly corpus?: RecallCorpus;
  readonly log?: (line: string) => void;
}

const k = 10;

/**
 * Recall at scale: the planted corpus (its questions and the turns that answer them) is stored first, then N newer
 * turns of distractors that share its topics and common words; every engine answers every question at each N.
 * Turns go straight into a database in memory, in one transaction: what is measured is the ranking, not the import.
 */
export async function runScaleEval(options: ScaleEvalOptions): Promise<ScalePoint[]> {
  const corpus = options.corpus ?? generateRecallCorpus();
  const sql = await loadSqlJs(options.wasmPath);
  const newest = Math.max(...corpus.turns.map((turn) => Date.parse(turn.at)));
  const points: ScalePoint[] = [];
  for (const newer of options.sizes) {
    const turns = [...corpus.turns, ...generateDistractors(newer, new Date(newest + 86_400_000))];
    const db = new sql.Database();
    try {
      migrate(db);
      storeTurns(db, turns);
      options.log?.(`${turns.length} turns stored (${newer} newer)`);
      const recallAt10: Record<string, number> = {};
      const meanMs: Record<string, number> = {};
      for (const [name, engine] of Object.entries(options.engines)) {
        const started = performance.now();
        recallAt10[name] = score(corpus, (query) => engine(db, query, k).map((hit) => hit.ref));
        meanMs[name] = round((performance.now() - started) / Math.max(1, corpus.questions.length));
      }
      for (const [name, engine] of Object.entries(options.indexed ?? {})) {
        const index = engine.build(turns);
        try {
          const started = performance.now();
          recallAt10[name] = score(corpus, (query) => index.search(query, k));
          meanMs[name] = round((performance.now() - started) / Math.max(1, corpus.questions.length));
        } finally {
          index.close();
        }
      }
      points.push({ newer, turns: turns.length, recallAt10, meanMs });
      options.log?.(`N = ${newer}: ${JSON.stringify(recallAt10)}`);
    } finally {
      db.close();
    }
  }
  return points;
}

function storeTurns(db: Database, turns: readonly RecallCorpusTurn[]): void {
  db.exec('BEGIN');
  const sessions = db.prepare('INSERT INTO sessions (id, source, started_at, last_at) VALUES (?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET last_at = excluded.last_at');
  const insert = db.prepare("INSERT INTO turns (id, session_id, seq, role, text, at, ref, tokens) VALUES (?, ?, ?, ?, ?, ?, ?, 0)");
  try {
    const seqs = new Map<string, number>();
    for (const turn of turns) {
      const seq = (seqs.get(turn.session) ?? 0) + 1;
      seqs.set(turn.session, seq);
      sessions.run([turn.session, 'import', turn.at, turn.at]);
      insert.run([`eval-${turn.ref}`, turn.session, seq, turn.role, turn.text, turn.at, turn.ref]);
    }
  } finally {
    sessions.free();
    insert.free();
  }
  db.exec('INSERT INTO turns_fts (docid, text) SELECT rowid, text FROM turns');
  db.exec('COMMIT');
  db.exec("INSERT INTO turns_fts (turns_fts) VALUES ('optimize')");
}

function score(corpus: RecallCorpus, search: (query: string) => readonly (string | undefined)[]): number {
  let found = 0;
  for (const question of corpus.questions) {
    const evidence = new Set(question.evidence);
    if (search(question.query).slice(0, k).some((ref) => ref !== undefined && evidence.has(ref))) found++;
  }
  return round(found / Math.max(1, corpus.questions.length));
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
