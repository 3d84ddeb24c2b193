import * as vscode from 'vscode';
import { planBudget, replyReserveFor } from '../core/context/budget';
import type { RollingSummaries } from '../core/context/rollingSummary';
import type { ChatMessage } from '../core/llm/chatModel';
import type { MemoryHost } from './memoryHost';
import { ollamaVendor } from './ollamaProvider';

/**
 * "Engram: Compact Now": folds the latest conversation into its summary with a chat model, after running capture
 * over the turns it folds. (The roll after a turn whose prompt left older turns out is the turn engine's.)
 */
export class SummaryHost {
  private readonly summaries: RollingSummaries | undefined;
  private lastModel: vscode.LanguageModelChat | undefined;
  private lastSession: string | undefined;

  constructor(
    memory: MemoryHost,
  ) {
    // The same instance the turn engine rolls with, so one roll per session at a time holds across both.
    this.summaries = memory.access.state === 'open' ? memory.access.summaries : undefined;
  }

  /** Called after each @engram turn: Compact Now folds the latest conversation, with the model it used. */
  noteTurn(sessionId: string, model: vscode.LanguageModelChat): void {
    this.lastModel = model;
    this.lastSession = sessionId;
  }

  /** Compact Now: learn from the older turns, then fold all but the last two into the summary. */
  async compactNow(sessionId = this.lastSession): Promise<string> {
    if (!this.summaries || !sessionId) return 'There is no conversation to compact yet: talk to @engram first.';
    const pending = this.summaries.pending(sessionId, 2).length;
    if (pending === 0) return 'Nothing to compact: the conversation is already in its summary or in the prompt whole.';
    const model = this.lastModel ?? (await vscode.lm.selectChatModels({ vendor: ollamaVendor }))[0];
    if (!model) throw new Error('no chat model is available to write the summary');
    // Each request is built to the model's window by the same planner as the prompt, so a long backlog still fits.
    const budget = planBudget({ window: model.maxInputTokens, replyReserve: replyReserveFor(model.maxInputTokens) }).budget;
    await this.summaries.roll(sessionId, (messages) => this.summarise(model, messages), { keep: 2, learnFirst: true, budget });
    const left = this.summaries.pending(sessionId, 2).length;
    const folded = `${pending - left} older turns are now in the conversation's summary (capture ran over them first)${left ? `; ${left} more at the next roll` : ''}`;
    if (this.summaries.status(sessionId)?.state === 'extractive') return `Compacted extractively: ${folded}, but ${this.summaries.describe(sessionId)}.`;
    return `Compacted: ${folded}.`;
  }

  private async summarise(model: vscode.LanguageModelChat, messages: ChatMessage[]): Promise<string> {
    const source = new vscode.CancellationTokenSource();
    const timer = setTimeout(() => source.cancel(), 120_000);
    try {
      const response = await model.sendRequest(
        messages.map((message) => (message.role === 'assistant' ? vscode.LanguageModelChatMessage.Assistant(message.content) : vscode.LanguageModelChatMessage.User(message.content))),
        { justification: 'Engram keeps a summary of the conversation so older turns are not lost from its prompt.' },
        source.token,
      );
      let text = '';
      for await (const part of response.text) text += part;
      return text;
    } finally {
      clearTimeout(timer);
      source.dispose();
    }
  }
}
