import type { Database } from 'sql.js';
import { recallConversation, type RecallOptions } from './conversationRecall';
import { readTurnHit, type TurnHit } from './turnSearch';
import { fuseRankings, type VectorMemory } from './vectorMemory';

export const turnVectorKey = (turnId: string): string => `turn:${turnId}`;

/**
 * Words and meaning together, when an embedding model is configured: the word ranking (recallConversation)
 * and the vector ranking fused by reciprocal rank, so a turn both find rises and a paraphrase the words miss
 * can still come back.
 */
export function hybridRecall(db: Database, query: string, queryVector: readonly number[], vectors: VectorMemory, options: RecallOptions = {}): TurnHit[] {
  const k = options.k ?? 10;
  const byWords = recallConversation(db, query, { ...options, k: k * 2 });
  const byMeaning = vectors
    .search(queryVector, k * 4)
    .map((hit) => hit.key.slice('turn:'.length))
    .filter((id) => !options.sessionId || byWords.some((h) => h.id === id) || sessionOf(db, id) === options.sessionId);
  const known = new Map(byWords.map((hit) => [hit.id, hit]));
  const hits: TurnHit[] = [];
  for (const id of fuseRankings(byWords.map((hit) => hit.id), byMeaning)) {
    const hit = known.get(id) ?? readTurnHit(db, 'id = ?', [id], 0);
    if (hit && !options.skip?.(hit)) hits.push(hit);
    if (hits.length === k) break;
  }
  return hits;
}

function sessionOf(db: Database, turnId: string): string | undefined {
  const value = db.exec('SELECT session_id FROM turns WHERE id = ?', [turnId])[0]?.values[0]?.[0];
  return typeof value === 'string' ? value : undefined;
}
