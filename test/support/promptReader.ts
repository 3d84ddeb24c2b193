/**
 * A stand-in model that answers "where do I work / live, which editor do I use" from whatever its prompt says, the
 * way a small local model does: the profile first, else the newest turn that says it. It heeds an explicit "No
 * longer true" line or "[Out of date: …]" note, as an instruction-following model would; that is an assumption
 * about real models, so the structural check (replay's count of prompts presenting a retired belief as true) is what
 * proves Engram marks them; this shows the end to end story.
 */
import type { ChatRequestBody, ScriptedReply } from './fakeOllama';

const questions: { key: string; asked: RegExp; said: RegExp; answer: (value: string) => string; unknown: string }[] = [
  {
    key: 'employer',
    asked: /\bwhere do i work\b/i,
    said: /\b(?:I work at|I'm at|I am at|work at|you work at)\s+([A-Z][\w&.-]*(?:\s+[A-Z][\w&.-]*)*)/g,
    answer: (value) => `You work at ${value}.`,
    unknown: "I don't know where you work.",
  },
  {
    key: 'location',
    asked: /\bwhere do i live\b|\bwhich city\b/i,
    said: /\b(?:I live in|live in|in)\s+([A-Z][\w-]+)/g,
    answer: (value) => `You live in ${value}.`,
    unknown: "I don't know where you live.",
  },
];

function lastUser(request: ChatRequestBody): string {
  return [...(request.messages ?? [])].reverse().find((message) => message.role === 'user')?.content ?? '';
}

/** The default reply of a stand-in that reads its prompt; anything else is echoed as the stand-in always does. */
export function answerFromPrompt(request: ChatRequestBody): ScriptedReply {
  const messages = request.messages ?? [];
  const asked = lastUser(request);
  const system = messages.filter((message) => message.role === 'system').map((message) => message.content ?? '').join('\n');
  for (const question of questions) {
    if (!question.asked.test(asked)) continue;
    const profile = new RegExp(`^- ${question.key}: (.+)$`, 'm').exec(system);
    if (profile) return { content: question.answer(profile[1].trim()) };
    const outdated = (value: string): boolean =>
      system.includes(`No longer true: ${question.key} = ${value}`) || messages.some((message) => (message.content ?? '').includes(`[Out of date: ${question.key} = ${value}`));
    // The newest turn that says it, as a model reading its history would.
    for (const message of [...messages].reverse().slice(1)) {
      if (message.role === 'system') continue;
      const found = [...(message.content ?? '').matchAll(question.said)].map((match) => match[1]).filter((value) => !outdated(value));
      if (found.length) return { content: question.answer(found.at(-1) as string) };
    }
    return { content: question.unknown };
  }
  return { content: `Stand-in reply to: ${asked.slice(0, 200)}` };
}
