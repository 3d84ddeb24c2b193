/**
 * The stand-in's summariser: answers Engram's summary requests the way a small local model does when it follows
 * the instructions (the four sections, a few bullets), and, when asked to, fails every Nth roll the way small models
 * often do (a friendly sentence without the sections).
 */

/** A summary request as Engram sends it: the system message names the running summary. */
export function isSummaryRequest(messages: readonly { role: string; content?: string }[] | undefined): boolean {
  return !!messages?.[0]?.content?.includes('running summary of a conversation');
}

const bulletOf = (line: string): string => `- ${line.replace(/^(user|assistant):\s*/, '').slice(0, 120)}`;

/** Keeps the bullets of the current summary and adds the first line of each new user turn, 12 bullets at most. */
export function sectionedSummary(userMessage: string): string {
  const [current = '', transcript = ''] = userMessage.split(/\n\nNew turns:\n/);
  // What it knew: the facts of its own last summary and any extractive lines, not the placeholder bullets.
  const facts = /## Facts and context\n([\s\S]*?)(?=\n## |$)/.exec(current)?.[1] ?? '';
  const extractive = /## Not yet summarised[^\n]*\n([\s\S]*)$/.exec(current)?.[1] ?? '';
  const kept = `${facts}\n${extractive}`.split('\n').filter((line) => line.startsWith('- ') && line !== '- none');
  const fresh = transcript
    .split('\n')
    .filter((line) => line.startsWith('user: '))
    .map(bulletOf);
  const bullets = [...kept, ...fresh].slice(-10);
  return ['## Goal', '- help the developer with their project', '## Decisions', '- none recorded', '## Facts and context', ...bullets, '## Open questions', '- none'].join('\n');
}

export const failedSummary = 'Sure! We talked about quite a few things; let me know what you want to do next.';
