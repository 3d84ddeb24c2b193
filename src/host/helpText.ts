import type * as vscode from 'vscode';
import { plural } from '../core/turn/promptBuilder';
import type { MemoryHost } from './memoryHost';
import { memoryStats } from '../core/context/memoryStats';

/** The /help answer: what Engram is, and which model and store this chat is using right now. */
export function helpMarkdown(memory: MemoryHost, model: vscode.LanguageModelChat): string {
  const access = memory.access;
  const stats = access.state === 'open' ? memoryStats(access.store) : undefined;
  const storeLine = stats
    ? `\`${memory.folder}\`: ${plural(stats.turns, 'turn')} in ${plural(stats.sessions, 'conversation')}, ${plural(stats.facts.confirmed, 'confirmed fact')}.`
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
    '',
    'Settings: `engram.ollama.host` (where Ollama runs), `engram.model` (the preferred Ollama model).',
  ].join('\n');
}
