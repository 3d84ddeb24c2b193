import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';
import type { Attachment } from '../core/context/attachments';
import { cl100kTokenCounter } from '../core/shared/tokenCounter';
import { receiptLine, receiptOf } from '../core/turn/memoryReceipt';
import { OllamaChatModel } from '../core/llm/ollamaChatModel';
import { EngramMemory } from '../core/turn/engramMemory';
import { MemoryToolRunner } from '../core/turn/memoryTools';
import { defaultContextLength, OllamaTurnModel } from '../core/turn/ollamaTurnModel';
import { TurnEngine, type TurnResult } from '../core/turn/turnEngine';
import type { MemoryStore } from '../core/store/memoryStore';
import type { ProjectScope } from '../core/project/projectScope';
import { teamFileSummary } from '../core/project/projectMemory';

export interface ChatCommandOptions {
  readonly store: MemoryStore;
  readonly model: string;
  readonly host: string;
  readonly session?: string;
  readonly contextLength?: number;
  /** Files attached to the first message (`--attach`), as `#file` attaches them in VS Code. */
  readonly attachments?: readonly Attachment[];
  readonly json: boolean;
  /** `--workspace DIR`: the project this chat learns about and uses. */
  readonly projectScope?: ProjectScope;
  readonly input: NodeJS.ReadableStream;
  readonly write: (line: string) => void;
  readonly warn: (line: string) => void;
  /** How long to wait for summary rolls still running at the end before cancelling them (default a minute). */
  readonly settleMs?: number;
}

/** One line per turn, as DESIGN.md's contract for `chat --json` says. */
function turnLine(turn: number, result: TurnResult): Record<string, unknown> {
  const report = result.report;
  return {
    turn,
    session: result.sessionId,
    reply: result.reply,
    learned: result.learned.map(({ key, value, tier }) => ({ key, value, tier })),
    retired: result.correction?.retired ? [{ key: result.correction.retired.key, value: result.correction.retired.value }] : [],
    question: result.question ? { key: result.question.key, value: result.question.value } : null,
    offTheRecord: result.offTheRecord === true,
    report: report
      ? {
          window: report.window,
          budget: report.budget,
          totalTokens: report.totalTokens,
          blocks: report.blocks.map(({ id, layer, state, tokens }) => ({ id, layer, state, tokens })),
          runtime: report.runtime ? { counted: report.runtime.counted, estimate: report.runtime.estimate, flagged: report.runtime.flagged } : null,
        }
      : null,
  };
}

/**
 * `engram chat`: user messages on stdin, one per line (a literal `\n` is a newline), each run through the same turn
 * engine as @engram against a real Ollama server. Ollama down or the model missing: the chat's message, exit 1.
 */
export async function runChat(options: ChatCommandOptions): Promise<number> {
  const memory = new EngramMemory(options.store, cl100kTokenCounter);
  const engine = new TurnEngine({ memory, tokens: cl100kTokenCounter, log: (level, message) => level !== 'info' && options.warn(message) });
  const model = new OllamaTurnModel(new OllamaChatModel({ host: options.host }), options.model, options.contextLength ?? defaultContextLength);
  const tools = new MemoryToolRunner(() => options.store, undefined, () => memory.retiredBeliefs(), cl100kTokenCounter);
  const sessionId = options.session ?? randomUUID();
  // The repository and its team file, read as the extension reads them when the folder opens (same code).
  if (options.projectScope) {
    const opened = await memory.projects.readOnOpen(options.projectScope);
    if (opened.teamFile.lines > 0 || opened.teamFile.notRead) options.warn(teamFileSummary(opened.teamFile));
  }
  try {
    await model.window();
  } catch (error) {
    options.warn(error instanceof Error ? error.message : String(error));
    return 1;
  }
  try {
    return await converse(options, engine, model, tools, sessionId);
  } finally {
    // The summary rolls run off the reply path: the store must not close under them (they are cancelled past a minute).
    await memory.summaries.settle(options.settleMs ?? 60_000);
  }
}

async function converse(options: ChatCommandOptions, engine: TurnEngine, model: OllamaTurnModel, tools: MemoryToolRunner, sessionId: string): Promise<number> {
  let turn = 0;
  let attachments = options.attachments ?? [];
  for await (const line of createInterface({ input: options.input, crlfDelay: Infinity })) {
    if (line.trim() === '') continue;
    turn++;
    const text = line.replace(/\\n/g, '\n');
    let streamed = '';
    const result = await engine.run({ sessionId, text, projectScope: options.projectScope, attachments }, { model, tools, onText: (chunk) => (streamed += chunk) });
    // Attached to the next message the model answers, as a chip is; later messages are about what was said since.
    if (!result.direct) attachments = [];
    if (result.error) {
      options.warn(result.error);
      return 1;
    }
    if (options.json) options.write(JSON.stringify(turnLine(turn, result)));
    else options.write(`${streamed}${notices(result)}`);
  }
  return 0;
}

function notices(result: TurnResult): string {
  const lines: string[] = [];
  if (result.report) lines.push(receiptLine(receiptOf(result.report)));
  if (result.correction?.retired) lines.push(`Corrected: I no longer believe ${result.correction.retired.key} = ${result.correction.retired.value}.`);
  if (result.offTheRecord) lines.push('Off the record: neither this message nor my reply is stored; both are gone when this conversation ends.');
  if (result.learned.length) lines.push(`Learned: ${result.learned.map((s) => `${s.key} = ${s.value}`).join(', ')}. Say "undo last learned" to take it back.`);
  if (result.question) lines.push(`Should I remember ${result.question.key} = ${result.question.value}? (yes / no)`);
  return lines.length ? `\n---\n${lines.join('\n')}` : '';
}

