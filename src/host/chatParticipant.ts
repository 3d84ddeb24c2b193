import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import { isUndoPhrase, learnedAnnouncement, questionAnnouncement, yesOrNo } from '../core/memory/announce';
import type { CorrectionOutcome } from '../core/memory/correctionFlow';
import type { TurnCapture } from '../core/memory/facts';
import type { StatementRecord } from '../core/memory/statementRepository';
import type { ContextReport } from '../core/context/contextReport';
import type { TurnRecord } from '../core/store/turnRepository';
import type { ContextReports } from './contextReports';
import { runModelTurn } from './modelTurn';
import type { SummaryHost } from './summaryHost';
import type { VectorHost } from './vectorHost';
import type { RetrievalSink } from './tools/retrievalSink';
import { helpMarkdown } from './helpText';
import type { MemoryHost } from './memoryHost';

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
  readonly onDidFinishTurn: vscode.EventEmitter<TurnOutcome>;
  readonly memoryChanged: () => void;
  readonly reports: ContextReports;
  readonly sink: RetrievalSink;
  readonly summaries: SummaryHost;
  readonly vectors: VectorHost;
  readonly log: vscode.LogOutputChannel;
  readonly extensionUri: vscode.Uri;
}

export function registerChatParticipant(deps: ParticipantDeps): vscode.Disposable {
  const { memory, onDidFinishTurn, memoryChanged, log, extensionUri } = deps;
  const handler: vscode.ChatRequestHandler = async (request, context, stream, token) => {
    const sessionId = sessionIdFromHistory(context);
    const metadata: EngramResultMetadata = { engramSessionId: sessionId };
    const finish = (outcome: Omit<TurnOutcome, 'sessionId' | 'prompt' | 'modelId'>): vscode.ChatResult => {
      onDidFinishTurn.fire({ sessionId, prompt: request.prompt, modelId: request.model.id, ...outcome });
      return outcome.error ? { metadata, errorDetails: { message: outcome.error } } : { metadata };
    };
    if (request.command === 'help') {
      const help = helpMarkdown(memory, request.model);
      stream.markdown(help);
      return finish({ reply: help, cancelled: false, learned: [] });
    }
    const remember = (role: 'user' | 'assistant', text: string): TurnRecord | undefined => {
      try {
        const turn = memory.store?.recordTurn({ sessionId, role, text });
        memory.noteWrite();
        return turn;
      } catch (error) {
        log.error(`could not record the ${role} turn: ${(error as Error).message}`);
        return undefined;
      }
    };
    // Other windows (and CLI imports) may have written since the last turn.
    memory.store?.syncFromOtherWriters();
    const isFirstTurn = (memory.store?.recentTurns(sessionId, 1).length ?? 0) === 0;
    const userTurn = remember('user', request.prompt);

    const direct = answerMemoryRequest(memory, request.prompt, sessionId);
    if (direct) {
      stream.markdown(direct);
      remember('assistant', direct);
      memoryChanged();
      return finish({ reply: direct, cancelled: false, learned: [] });
    }

    let capture: TurnCapture = { learned: [], queued: [] };
    let correction: CorrectionOutcome | undefined;
    try {
      // A correction acts first, in its own turn; a new value said in the same breath then goes through capture.
      if (userTurn && memory.corrections) correction = memory.corrections.onUserTurn(userTurn);
      if (correction) memoryChanged();
      if (userTurn && memory.facts) capture = memory.facts.captureFromTurn(userTurn);
      if (capture.learned.length || capture.question || capture.queued.length) memoryChanged();
    } catch (error) {
      log.error(`capture failed: ${(error as Error).message}`);
    }
    if (memory.unavailableReason && isFirstTurn) {
      stream.markdown(`> ${memory.unavailableReason}\n>\n> This chat works, but nothing is remembered.\n\n`);
    }

    let reply = '';
    let failure: string | undefined;
    let report: ContextReport | undefined;
    try {
      const result = await runModelTurn({ memory, request, sessionId, turnId: userTurn?.id ?? randomUUID(), stream, token, sink: deps.sink });
      reply = result.reply;
      report = result.report;
    } catch (error) {
      if (!token.isCancellationRequested) {
        failure = explainFailure(error, request.model);
        log.error(`chat request failed: ${failure}`);
      }
    }
    if (report) {
      deps.reports.record(report);
      const conversation = report.blocks.find((block) => block.id === 'conversation');
      deps.summaries.afterTurn(sessionId, request.model, conversation?.state === 'truncated');
    }
    // What was said is remembered even when the reply was cut short.
    const assistantTurn = reply ? remember('assistant', reply) : undefined;
    deps.vectors.afterTurn([userTurn, assistantTurn]);
    // Nothing is announced as learned or retired before it is on disk; a failed write is said, not hidden.
    const saved = await (memory.store?.flush().then(() => true, () => false) ?? Promise.resolve(true));
    if (correction) announceCorrection(stream, correction);
    announce(stream, capture);
    if (!saved) stream.markdown('\n\n_Engram could not save this turn to its memory folder yet: it is kept in this window and written as soon as saving works._');
    return finish({ reply, error: failure, cancelled: token.isCancellationRequested, learned: capture.learned, question: capture.question, report });
  };
  const participant = vscode.chat.createChatParticipant(participantId, handler);
  participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'engram.png');
  return participant;
}

/** "undo last learned", or a yes/no to the pending question: answered from memory, without the model. */
function answerMemoryRequest(memory: MemoryHost, prompt: string, sessionId: string): string | undefined {
  const facts = memory.facts;
  if (!facts) return undefined;
  if (isUndoPhrase(prompt)) {
    const undone = facts.undoLastLearned(sessionId);
    return undone.length
      ? `Done: I no longer believe ${undone.map((s) => `${s.key} = ${s.value}`).join(', ')}.`
      : 'There is nothing learned in this conversation to take back.';
  }
  const answer = yesOrNo(prompt);
  const pending = answer && facts.list('proposed').find((s) => s.askedInSession === sessionId);
  if (!answer || !pending) return undefined;
  if (answer === 'yes') {
    facts.approve(pending.id, 'approved by the owner when asked in the chat');
    return `Thanks, I'll remember ${pending.key} = ${pending.value}.`;
  }
  facts.reject(pending.id, 'rejected by the owner when asked in the chat');
  return `All right, I won't remember ${pending.key} = ${pending.value}.`;
}

function announceCorrection(stream: vscode.ChatResponseStream, correction: CorrectionOutcome): void {
  if (correction.retired) {
    const belief = `${correction.retired.key} = ${correction.retired.value}`;
    stream.markdown(`\n\n---\n**Corrected:** I no longer believe ${belief}.`);
    stream.button({ command: 'engram.undoCorrection', title: 'Undo', arguments: [{ statementId: correction.retired.id }] });
    if (correction.lesson?.status === 'proposed') {
      stream.markdown(`\n\nProposed lesson for next time: *${correction.lesson.text}* (approve it in the Memory view).`);
    }
  } else if (correction.unattributed) {
    stream.markdown(
      '\n\n---\nIt sounds like I got something about you wrong, but I cannot tell which belief. ' +
        'Tell me which one, or remove it with **Engram: Forget Fact…**.',
    );
  }
}

function announce(stream: vscode.ChatResponseStream, capture: TurnCapture): void {
  if (capture.learned.length > 0) {
    stream.markdown(`\n\n---\n${learnedAnnouncement(capture.learned)}`);
    stream.button({ command: 'engram.undoLastLearned', title: 'Undo', arguments: [{ statementIds: capture.learned.map((s) => s.id) }] });
  }
  if (capture.question) {
    stream.markdown(`\n\n${questionAnnouncement(capture.question)}`);
    stream.button({ command: 'engram.answerQuestion', title: 'Yes', arguments: [{ statementId: capture.question.id, answer: 'yes' }] });
    stream.button({ command: 'engram.answerQuestion', title: 'No', arguments: [{ statementId: capture.question.id, answer: 'no' }] });
  }
}

function explainFailure(error: unknown, model: vscode.LanguageModelChat): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof vscode.LanguageModelError && error.code === vscode.LanguageModelError.NoPermissions.name) {
    return `Engram may not use the model "${model.name}" yet: allow it when VS Code asks, then send the message again.`;
  }
  return message || `The model "${model.name}" failed without saying why.`;
}
