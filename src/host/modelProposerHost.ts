import * as vscode from 'vscode';
import { OllamaChatModel } from '../core/llm/ollamaChatModel';
import type { Allowlist } from '../core/memory/allowlist';
import { proposeWithModel } from '../core/capture/modelProposer';
import type { TurnRecord } from '../core/store/turnRepository';
import type { MemoryHost } from './memoryHost';
import { readSettings } from './settings';

/** The vendor id of the chat models Engram's own Ollama provider offers (package.json, languageModelChatProviders). */
const engramOllamaVendor = 'engram-ollama';

/**
 * The optional model-assisted proposer (`engram.capture.modelProposer`): after the reply, the turn's Ollama model
 * proposes facts from the owner's words; the core checks each one against those words and queues what passes
 * for review. Never on the reply path (it listens to the participant's finished turns), never a confirmation.
 */
export class ModelProposerHost {
  constructor(
    private readonly memory: MemoryHost,
    private readonly allowlist: () => Allowlist,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  get enabled(): boolean {
    return vscode.workspace.getConfiguration('engram').get<boolean>('capture.modelProposer', false);
  }

  /**
   * After a chat turn has finished (the participant's onDidFinishTurn): proposes from the turn's user message with
   * the turn's model, when that model is one of Engram's Ollama models. Runs in the background; a failure is logged
   * and capture's own proposals stand.
   */
  afterTurn(outcome: { readonly sessionId: string; readonly modelId: string; readonly cancelled: boolean; readonly error?: string; readonly offTheRecord?: boolean }): void {
    const access = this.memory.access;
    // Off the record: the words were never stored, and nothing may be learned from them.
    if (!this.enabled || access.state !== 'open' || outcome.cancelled || outcome.error || outcome.offTheRecord) return;
    const store = access.store;
    const turn = [...store.recentTurns(outcome.sessionId, 4)].reverse().find((candidate) => candidate.role === 'user');
    if (!turn) return;
    void vscode.lm
      .selectChatModels({ vendor: engramOllamaVendor, id: outcome.modelId })
      .then((models) => (models.length > 0 ? this.propose(turn, outcome.modelId) : undefined))
      .then(undefined, (error: unknown) => this.log.warn(`model proposer skipped: ${error instanceof Error ? error.message : String(error)}`));
  }

  private async propose(turn: TurnRecord, model: string): Promise<void> {
    if (this.memory.access.state !== 'open') return;
    const facts = this.memory.access.facts;
    const settings = readSettings();
    const port = new OllamaChatModel({ host: settings.ollamaHost, responseTimeoutSeconds: settings.ollamaTimeoutSeconds });
    const { accepted, rejected } = await proposeWithModel(port, 'user', turn.text, { model, allowlist: this.allowlist() });
    for (const refused of rejected) this.log.info(`model proposal refused: ${refused.key} = ${refused.value} (${refused.why})`);
    facts.queueModelProposals(turn, accepted);
  }
}
