import * as vscode from 'vscode';
import { OllamaChatModel } from '../core/llm/ollamaChatModel';
import type { Allowlist } from '../core/memory/allowlist';
import { proposeWithModel } from '../core/memory/modelProposer';
import type { TurnRecord } from '../core/store/turnRepository';
import type { MemoryHost } from './memoryHost';
import { readSettings } from './settings';

/** The vendor id of the chat models Engram's own Ollama provider offers (package.json, languageModelChatProviders). */
const engramOllamaVendor = 'engram-ollama';

/**
 * The optional model-assisted proposer (`engram.capture.modelProposer`): after the reply, the turn's Ollama model
 * proposes facts from the owner's words; the core checks each one against those words and queues what passes
 * for review. Never on the reply path, never a confirmation. Call `afterReply` once the reply has streamed.
 */
export class ModelProposerHost {
  constructor(
    private readonly memory: MemoryHost,
    private readonly allowlist: () => Allowlist,
    private readonly log: vscode.LogOutputChannel,
    private readonly onQueued: () => void = () => undefined,
  ) {}

  get enabled(): boolean {
    return vscode.workspace.getConfiguration('engram').get<boolean>('capture.modelProposer', false);
  }

  /** Runs in the background; a failure is logged and capture's own proposals stand. */
  afterReply(turn: TurnRecord | undefined, model: vscode.LanguageModelChat): void {
    const facts = this.memory.facts;
    if (!this.enabled || !facts || !turn || turn.role !== 'user' || model.vendor !== engramOllamaVendor) return;
    const settings = readSettings();
    const port = new OllamaChatModel({ host: settings.ollamaHost, responseTimeoutSeconds: settings.ollamaTimeoutSeconds });
    proposeWithModel(port, 'user', turn.text, { model: model.id, allowlist: this.allowlist() })
      .then(({ accepted, rejected }) => {
        for (const refused of rejected) this.log.info(`model proposal refused: ${refused.key} = ${refused.value} (${refused.why})`);
        if (facts.queueModelProposals(turn, accepted).length > 0) this.onQueued();
      })
      .catch((error: unknown) => this.log.warn(`model proposer skipped: ${error instanceof Error ? error.message : String(error)}`));
  }
}
