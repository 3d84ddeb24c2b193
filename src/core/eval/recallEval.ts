import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'sql.js';
import { MemoryStore } from '../store/memoryStore';
import { generateRecallCorpus, type RecallCorpus } from './recallCorpus';

/** A recall engine under test: the k turns it would put before the model, best first. */
export type RecallEngine = (db: Database, query: string, k: number) => readonly { readonly ref?: string }[];

export interface RecallScores {
  /** Share of questions with at least one evidence turn among the first 5 results. */
  readonly recallAt5: number;
  /** Share of questions with at least one evidence turn among the first 10 results. */
  readonly recallAt10: number;
  /** Mean over questions of 1 / rank of the first evidence turn within the first 10 (0 when absent). */
  readonly mrr: number;
}

export interface RecallEvalReport {
  readonly turns: number;
  readonly sessions: number;
  readonly questions: number;
  readonly results: Record<string, RecallScores>;
}

export interface RecallEvalOptions {
  readonly wasmPath: string;
  readonly engines: Record<string, RecallEngine>;
  /** Default: the generated corpus for seed 7. */
  readonly corpus?: RecallCorpus;
}

const k = 10;

/**
 * Scores recall engines on the generated corpus: every turn goes into a throw-away store (in a temp folder,
 * removed afterwards), then every engine answers every question with k = 10.
 */
export async function runRecallEval(options: RecallEvalOptions): Promise<RecallEvalReport> {
  const corpus = options.corpus ?? generateRecallCorpus();
  const folder = mkdtempSync(join(tmpdir(), 'engram-recall-eval-'));
  try {
    const store = await MemoryStore.open({
      folder,
      wasmPath: options.wasmPath,
      tokens: { count: (text) => text.split(/\s+/).length },
      // Indexing is brought up to date explicitly below, not by a timer.
      indexDelayMs: 3_600_000,
    });
    try {
      for (const turn of corpus.turns) {
        store.recordTurn({
          id: `eval-${turn.ref}`,
          sessionId: turn.session,
          role: turn.role,
          text: turn.text,
          at: turn.at,
          ref: turn.ref,
          source: 'import',
        });
      }
      store.indexPending();
      const results: Record<string, RecallScores> = {};
      for (const [name, engine] of Object.entries(options.engines)) {
        results[name] = score(corpus, (query) => store.read((db) => engine(db, query, k)));
      }
      return {
        turns: corpus.turns.length,
        sessions: new Set(corpus.turns.map((turn) => turn.session)).size,
        questions: corpus.questions.length,
        results,
      };
    } finally {
      await store.close();
    }
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function score(corpus: RecallCorpus, search: (query: string) => readonly { readonly ref?: string }[]): RecallScores {
  let at5 = 0;
  let at10 = 0;
  let reciprocal = 0;
  for (const question of corpus.questions) {
    const evidence = new Set(question.evidence);
    const refs = search(question.query).slice(0, k).map((hit) => hit.ref);
    const rank = refs.findIndex((ref) => ref !== undefined && evidence.has(ref));
    if (rank < 0) continue;
    if (rank < 5) at5++;
    at10++;
    reciprocal += 1 / (rank + 1);
  }
  const total = Math.max(1, corpus.questions.length);
  return { recallAt5: round(at5 / total), recallAt10: round(at10 / total), mrr: round(reciprocal / total) };
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
