import type { Database } from 'sql.js';
import { selectAll } from '../store/rows';
import { queryTerms, queryWords } from './queryTerms';
import { stem } from './stem';

export type MemoryScope = 'facts' | 'behaviors' | 'summaries' | 'all';

export interface MemoryHit {
  readonly kind: 'fact' | 'behavior' | 'summary';
  /** Whom a fact is about: the owner ('you') or the current project ('this project'). */
  readonly belongsTo?: 'you' | 'this project';
  readonly id: string;
  readonly label: string;
  readonly text: string;
  readonly score: number;
}

export function isMemoryScope(value: unknown): value is MemoryScope {
  return value === 'facts' || value === 'behaviors' || value === 'summaries' || value === 'all';
}

/**
 * Searches confirmed memory: facts (FTS4 over key and value, stemmed prefixes) and conversation summaries.
 * Proposed, rejected and retired statements are never returned: only what the owner confirmed is memory.
 * A query with no words to search for (empty, or only stop words) lists the confirmed facts, newest first; words that
 * match no fact find none.
 */
export function searchMemory(db: Database, query: string, scope: MemoryScope = 'all', k = 10, project?: string): MemoryHit[] {
  // The owner's facts everywhere; a project's only in that project: another repository's facts never come back.
  const scopes = project ? ['owner', project] : ['owner'];
  const terms = [...new Set(queryTerms(query).map(stem))];
  const hits: MemoryHit[] = [];
  if (scope === 'facts' || scope === 'all') {
    const rows = terms.length
      ? selectAll(
          db,
          `SELECT s.id, s.key, s.value, s.scope, s.updated_at FROM statements_fts f JOIN statements s ON s.rowid = f.docid
           WHERE statements_fts MATCH ? AND s.status = 'confirmed' AND s.scope IN (?, ?) ORDER BY s.updated_at DESC LIMIT ?`,
          [terms.map((term) => `${term.replace(/"/g, '')}*`).join(' OR '), scopes[0], scopes.at(-1)!, k],
        )
      : [];
    // Words that match nothing find nothing: answering "diet" (retired) with role, employer and name read as if they matched.
    const found = terms.length > 0 ? rows : selectAll(db, "SELECT id, key, value, scope FROM statements WHERE status = 'confirmed' AND scope IN (?, ?) ORDER BY updated_at DESC LIMIT ?", [scopes[0], scopes.at(-1)!, k]);
    found.forEach((row, index) => {
      const belongsTo = row.scope === 'owner' ? 'you' : 'this project';
      hits.push({
        kind: 'fact', id: String(row.id), belongsTo, label: `${String(row.key)} = ${String(row.value)}${belongsTo === 'you' ? '' : ' (this project)'}`,
        text: `${String(row.key)}: ${String(row.value)}`, score: rows.length > 0 ? 1 - index / (k + 1) : 0.1,
      });
    });
  }
  const words = [...new Set(queryWords(query).map(stem))];
  if ((scope === 'summaries' || scope === 'all') && words.length > 0) {
    // instr, not LIKE: a word is text, never a pattern (`_` and `%` are not wildcards), and any length works.
    const contains = words.map(() => 'instr(lower(summary), ?) > 0').join(' OR ');
    const rows = selectAll(db, `SELECT id, summary, last_at FROM sessions WHERE summary IS NOT NULL AND (${contains}) ORDER BY last_at DESC LIMIT ?`, [
      ...words,
      k,
    ]);
    rows.forEach((row, index) =>
      hits.push({ kind: 'summary', id: String(row.id), label: `summary of the conversation of ${String(row.last_at).slice(0, 10)}`, text: String(row.summary), score: 0.9 - index / (k + 1) }),
    );
  }
  // Behaviours arrive with the corrections work; until then a search over them finds nothing.
  return hits.sort((a, b) => b.score - a.score).slice(0, k);
}
