import type { StatementRecord } from '../memory/statementRepository';
import type { ContextBlock, RetrievalEntry } from './contextReport';
import type { TokenCounter } from '../shared/tokenCounter';

/** What a prompt knows of the current project: its confirmed facts whose citations hold, and those that need a look. */
export interface ProjectContext {
  readonly label: string;
  readonly facts: readonly StatementRecord[];
  /** Confirmed, but their cited lines changed or vanished: never injected as true. */
  readonly needsLook: readonly { readonly fact: StatementRecord; readonly state: 'changed' | 'vanished' }[];
}

const title = 'This project (confirmed facts)';

/**
 * The "This project" L0 block: the current repository's confirmed facts under their own share of the budget. A fact
 * whose citation no longer holds stays out (the report says how many and why), so a stale rule never reads as true.
 */
export function projectBlock(project: ProjectContext | undefined, share: number, t: TokenCounter): { block: ContextBlock; retrieval: RetrievalEntry[] } {
  const absent = (why: string): { block: ContextBlock; retrieval: RetrievalEntry[] } => ({
    block: { id: 'project', layer: 'L0', title, state: 'absent', text: '', tokens: 0, fullTokens: 0, why }, retrieval: [],
  });
  if (!project) return absent('no project: this chat has no workspace folder');
  const looks = project.needsLook.length
    ? `; ${project.needsLook.length} left out because ${project.needsLook.length === 1 ? 'its' : 'their'} cited lines changed or vanished (needs a look: ${project.needsLook.map((n) => n.fact.key).join(', ')})`
    : '';
  if (project.facts.length === 0) return absent(`no confirmed facts about ${project.label} yet${looks}`);
  const shown: StatementRecord[] = [];
  let cost = 0;
  for (const fact of project.facts) {
    if (cost + fact.tokens + 2 > share && shown.length > 0) break;
    shown.push(fact);
    cost += fact.tokens + 2;
  }
  const text = `What the user confirmed about this project (${project.label}); follow it here, and only here:\n${shown.map((f) => `- ${f.key}: ${f.value}`).join('\n')}`;
  const tokens = t.count(text);
  const full = project.facts.reduce((sum, fact) => sum + fact.tokens + 2, 0);
  const cut = shown.length < project.facts.length;
  const why = `${shown.length} facts of ${project.label}${cut ? `, ${project.facts.length - shown.length} beyond the project share of ${share} tokens` : ` within the project share (${share} tokens)`}${looks}`;
  return {
    block: { id: 'project', layer: 'L0', title, state: cut ? 'truncated' : 'included', text, tokens, fullTokens: Math.max(full, tokens), why },
    retrieval: shown.map((fact) => ({ kind: 'fact', memoryId: fact.id, via: 'prompt', label: `${fact.key} = ${fact.value} (this project)` })),
  };
}
