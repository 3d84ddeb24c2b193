import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { ContextReport } from '../core/context/contextReport';
import type { StatementRecord } from '../core/memory/statementRepository';
import type { TurnEngine, TurnResult } from '../core/turn/turnEngine';
import type { ProjectScope } from '../core/project/projectScope';
import type { MemoryReceipt } from '../core/turn/memoryReceipt';
import { readRequestParts, type RequestParts } from './chatReferences';
import type { ContextReports } from './contextReports';
import { helpMarkdown } from './helpText';
import type { MemoryHost } from './memoryHost';
import type { SummaryHost } from './summaryHost';
import { renderTurnNotices } from './turnNotices';
import { renderReceipt } from './turnReceipt';
import type { TurnToolCatalogue } from './turnTools';
import type { TurnModels } from './vscodeTurnModel';

export const participantId = 'engram.engram';

/** What a finished turn produced; tests and the context panel listen to it. */
export interface TurnOutcome {
  readonly sessionId: string;
  readonly prompt: string;
  readonly reply: string;
  readonly modelId: string;
  readonly error?: string;
  readonly cancelled: boolean;
  readonly learned: readonly StatementRecord[];
  readonly question?: StatementRecord;
  /** What the prompt carried (absent for turns answered without the model). */
  readonly report?: ContextReport;
  /** The owner asked that this message not be remembered. */
  readonly offTheRecord?: boolean;
  /** The memory receipt shown under the reply, and its Markdown (with the Wrong links). */
  readonly receipt?: { readonly receipt: MemoryReceipt; readonly markdown: string };
  /** The labels of what the request attached ("notes.txt:1-2"), as the engine received them. */
  readonly attached?: readonly string[];
  /** The words sent as the user's message (the prompt less its tool chips). */
  readonly sentText?: string;
  /** What the chat showed as progress while a thinking model thought (the thinking itself is never shown as the reply). */
  readonly progress?: readonly string[];
  /** Characters of thinking the model streamed before its answer. */
  readonly thinkingChars?: number;
}

/** Kept in ChatResult.metadata; VS Code hands it back in the history, which is how a session is recognised. */
interface EngramResultMetadata {
  readonly engramSessionId: string;
}

function isEngramMetadata(value: unknown): value is EngramResultMetadata {
  return !!value && typeof (value as EngramResultMetadata).engramSessionId === 'string';
}

/** The session of this chat: the one named by our last reply in the history, or a new one. */
export function sessionIdFromHistory(context: vscode.ChatContext): string {
  for (let i = context.history.length - 1; i >= 0; i--) {
    const turn = context.history[i];
    if (turn instanceof vscode.ChatResponseTurn && isEngramMetadata(turn.result.metadata)) {
      return turn.result.metadata.engramSessionId;
    }
  }
  return randomUUID();
}

export interface ParticipantDeps {
  readonly memory: MemoryHost;
  readonly engine: TurnEngine;
  readonly models: TurnModels;
  readonly tools: TurnToolCatalogue;
  readonly onDidFinishTurn: vscode.EventEmitter<TurnOutcome>;
  readonly reports: ContextReports;
  readonly summaries: SummaryHost;
  readonly extensionUri: vscode.Uri;
  /** The project of the active editor's workspace folder (its facts are learned and used in its chats only). */
  readonly projectScope?: () => ProjectScope | undefined;
  /** Every project of the window (one per folder): `/help` counts what waits in each, as the Memory view's badge does. */
  readonly projectScopes?: () => readonly ProjectScope[];
}

/** `@engram`: an adapter from VS Code's chat to the core's turn engine (stream, buttons, cancellation). */
export function registerChatParticipant(deps: ParticipantDeps): vscode.Disposable {
  const { memory, engine, onDidFinishTurn, extensionUri } = deps;
  const handler: vscode.ChatRequestHandler = async (request, context, stream, token) => {
    const sessionId = sessionIdFromHistory(context);
    const metadata: EngramResultMetadata = { engramSessionId: sessionId };
    const finish = (outcome: Omit<TurnOutcome, 'sessionId' | 'prompt' | 'modelId'>): vscode.ChatResult => {
      onDidFinishTurn.fire({ sessionId, prompt: request.prompt, modelId: request.model.id, ...outcome });
      return outcome.error ? { metadata, errorDetails: { message: outcome.error } } : { metadata };
    };
    if (request.command === 'help') {
      const help = helpMarkdown(memory, request.model, deps.projectScopes?.() ?? []);
      stream.markdown(help);
      return finish({ reply: help, cancelled: false, learned: [] });
    }
    const abort = new AbortController();
    const cancellation = token.onCancellationRequested(() => abort.abort());
    let result: TurnResult;
    let parts: RequestParts;
    const progress: string[] = [];
    let thinkingChars = 0;
    // One collapsed progress line while the model thinks: the reasoning is not the answer, and it is never stored.
    const onThinking = (text: string): void => {
      if (thinkingChars === 0) {
        const line = `Thinking (${request.model.name})…`;
        progress.push(line);
        stream.progress(line);
      }
      thinkingChars += text.length;
    };
    try {
      if (memory.access.state === 'unavailable' && context.history.length === 0) {
        stream.markdown(`> ${memory.access.reason}\n>\n> This chat works, but nothing is remembered.\n\n`);
      }
      parts = await readRequestParts(request);
      const { tools, cap } = deps.tools.forRequest(request, token, (message) => stream.progress(message), parts.requiredTools);
      result = await engine.run(
        { sessionId, text: parts.text, attachments: parts.attachments, requiredTools: parts.requiredTools, projectScope: deps.projectScope?.() },
        { model: deps.models.forRequest(request.model, token), tools, toolCap: cap, onText: (text) => stream.markdown(text), onThinking, signal: abort.signal },
      );
    } finally {
      cancellation.dispose();
    }
    if (result.report) deps.reports.record(result.report);
    deps.summaries.noteTurn(sessionId, request.model);
    const receipt = result.error || result.cancelled ? undefined : renderReceipt(stream, result.report);
    // Nothing is announced as learned or retired before it is on disk; a failed write is said, not hidden.
    const saved = memory.access.state === 'open' ? await memory.access.store.flush().then(() => true, () => false) : true;
    renderTurnNotices(stream, result);
    if (!saved) stream.markdown('\n\n_Engram could not save this turn to its memory folder yet: it is kept in this window and written as soon as saving works._');
    return finish({
      reply: result.reply, error: result.error, cancelled: result.cancelled, learned: result.learned, question: result.question, report: result.report, offTheRecord: result.offTheRecord,
      receipt, attached: parts.attachments.map((attachment) => attachment.label), sentText: parts.text, progress, thinkingChars,
    });
  };
  const participant = vscode.chat.createChatParticipant(participantId, handler);
  participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'engram.png');
  return participant;
}
