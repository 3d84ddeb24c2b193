import { randomUUID } from 'node:crypto';
import * as vscode from 'vscode';
import type { TurnRecord } from '../core/store/turnRepository';
import type { MemoryHost } from './memoryHost';
import { helpMarkdown } from './helpText';

export const participantId = 'engram.engram';

/** What a finished turn produced; tests and the context panel listen to it. */
export interface TurnOutcome {
  readonly sessionId: string;
  readonly prompt: string;
  readonly reply: string;
  readonly modelId: string;
  readonly error?: string;
  readonly cancelled: boolean;
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

const identity =
  'You are Engram, a coding assistant inside VS Code running on local models. Answer precisely and briefly. ' +
  'When you do not know something about the user, say so rather than guessing.';

/** How many earlier turns of this session go into the prompt, until the context layers take over budgeting. */
const recentTurnLimit = 20;

export function registerChatParticipant(
  memory: MemoryHost,
  onDidFinishTurn: vscode.EventEmitter<TurnOutcome>,
  log: vscode.LogOutputChannel,
  extensionUri: vscode.Uri,
): vscode.Disposable {
  const handler: vscode.ChatRequestHandler = async (request, context, stream, token) => {
    const sessionId = sessionIdFromHistory(context);
    const metadata: EngramResultMetadata = { engramSessionId: sessionId };
    if (request.command === 'help') {
      const help = helpMarkdown(memory, request.model);
      stream.markdown(help);
      onDidFinishTurn.fire({ sessionId, prompt: request.prompt, reply: help, modelId: request.model.id, cancelled: false });
      return { metadata };
    }
    const remember = (role: 'user' | 'assistant', text: string): void => {
      try {
        memory.store?.recordTurn({ sessionId, role, text });
        memory.noteWrite();
      } catch (error) {
        log.error(`could not record the ${role} turn: ${(error as Error).message}`);
      }
    };
    // Other windows (and CLI imports) may have written since the last turn.
    memory.store?.syncFromOtherWriters();
    const earlier = memory.store?.turns(sessionId).slice(-recentTurnLimit) ?? [];
    remember('user', request.prompt);
    if (memory.unavailableReason && earlier.length === 0) {
      stream.markdown(`> ${memory.unavailableReason}\n>\n> This chat works, but nothing is remembered.\n\n`);
    }
    let reply = '';
    let failure: string | undefined;
    try {
      const response = await request.model.sendRequest(buildMessages(earlier, request.prompt), {}, token);
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) {
          reply += part.value;
          stream.markdown(part.value);
        }
      }
    } catch (error) {
      if (!token.isCancellationRequested) {
        failure = explainFailure(error, request.model);
        log.error(`chat request failed: ${failure}`);
      }
    }
    // What was said is remembered even when the reply was cut short.
    if (reply) remember('assistant', reply);
    const cancelled = token.isCancellationRequested;
    onDidFinishTurn.fire({ sessionId, prompt: request.prompt, reply, modelId: request.model.id, error: failure, cancelled });
    return failure ? { metadata, errorDetails: { message: failure } } : { metadata };
  };
  const participant = vscode.chat.createChatParticipant(participantId, handler);
  participant.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'engram.png');
  return participant;
}

function buildMessages(earlier: readonly TurnRecord[], prompt: string): vscode.LanguageModelChatMessage[] {
  return [
    vscode.LanguageModelChatMessage.User(identity),
    ...earlier.map((turn) =>
      turn.role === 'user' ? vscode.LanguageModelChatMessage.User(turn.text) : vscode.LanguageModelChatMessage.Assistant(turn.text),
    ),
    vscode.LanguageModelChatMessage.User(prompt),
  ];
}

function explainFailure(error: unknown, model: vscode.LanguageModelChat): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof vscode.LanguageModelError && error.code === vscode.LanguageModelError.NoPermissions.name) {
    return `Engram may not use the model "${model.name}" yet: allow it when VS Code asks, then send the message again.`;
  }
  return message || `The model "${model.name}" failed without saying why.`;
}
