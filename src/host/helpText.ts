import type * as vscode from 'vscode';
import { plural } from '../core/turn/promptBuilder';
import type { MemoryHost } from './memoryHost';
import { memoryStats } from '../core/context/memoryStats';
import { memoryOverview, waitingText, type MemoryCounts } from '../core/project/memoryOverview';
import type { ProjectScope } from '../core/project/projectScope';

/** "2 confirmed facts about you; app: 1 confirmed, 1 proposed; 2 facts wait for your review": the counts every view shows. */
export function countsLine(counts: MemoryCounts): string {
  const projects = counts.projects.map((project) =>
    [`this project (${project.label}): ${project.confirmed} confirmed`, project.needsLook ? `${project.needsLook} need a look` : '', project.proposed ? `${project.proposed} proposed` : '']
      .filter(Boolean)
      .join(', '),
  );
  return [`${plural(counts.confirmed, 'confirmed fact')} about you`, ...projects, `${waitingText(counts.waiting)} (Engram: Review Proposed Facts)`].join('; ');
}

/** The /help answer: what Engram is, and which model and store this chat is using right now. */
export function helpMarkdown(memory: MemoryHost, model: vscode.LanguageModelChat, scopes: readonly ProjectScope[] = []): string {
  const access = memory.access;
  const stats = access.state === 'open' ? memoryStats(access.store) : undefined;
  const counts = access.state === 'open' ? memoryOverview(access.facts, { memory: access.projects, scopes }).counts : undefined;
  const storeLine = stats
    ? `\`${memory.folder}\`: ${plural(stats.turns, 'turn')} in ${plural(stats.sessions, 'conversation')}.`
    : `unavailable: ${access.state === 'unavailable' ? access.reason : 'not opened'}`;
  return [
    '**Engram** is a coding assistant on local Ollama models whose memory you can trust and see.',
    '',
    '- It records this conversation in a memory store on this machine.',
    '- It remembers facts about you only when you confirm them, and forgets a belief when you say it is wrong.',
    '- It shows what each prompt carried.',
    '',
    `**Model:** ${model.name} (\`${model.id}\`, from ${model.vendor}). Change it with the model picker in the chat input.`,
    '',
    `**Memory store:** ${storeLine}`,
    ...(counts ? ['', `**Memory:** ${countsLine(counts)}.`] : []),
    '',
    'Settings: `engram.ollama.host` (where Ollama runs), `engram.model` (the preferred Ollama model).',
  ].join('\n');
}
