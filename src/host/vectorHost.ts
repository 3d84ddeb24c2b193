import * as vscode from 'vscode';
import { OllamaChatModel } from '../core/llm/ollamaChatModel';
import { turnVectorKey } from '../core/recall/hybridRecall';
import { VectorMemory } from '../core/recall/vectorMemory';
import type { TurnRecord } from '../core/store/turnRepository';
import type { MemoryHost } from './memoryHost';
import { readSettings } from './settings';

/**
 * Turn vectors when `engram.embeddingModel` names an Ollama embedding model: computed after the reply (never
 * on its path), searched by recall_conversation together with the words, removed with forgotten turns.
 */
export class VectorHost implements vscode.Disposable {
  readonly vectors: VectorMemory | undefined;

  constructor(
    memory: MemoryHost,
    private readonly log: vscode.LogOutputChannel,
  ) {
    const store = memory.access.state === 'open' ? memory.access.store : undefined;
    this.vectors = store && store.journalName ? new VectorMemory(store.layout.folder, store.journalName.replace(/\.jsonl$/, '')) : undefined;
    store?.onDidForget((removed) => {
      const gone = this.vectors?.remove(removed.turnIds.map(turnVectorKey)) ?? 0;
      if (gone) log.info(`removed ${gone} vectors of forgotten turns`);
    });
  }

  /** The embedding model, when one is configured. */
  get model(): string | undefined {
    return vscode.workspace.getConfiguration('engram').get<string>('embeddingModel', '').trim() || undefined;
  }

  private ollama(): OllamaChatModel {
    const settings = readSettings();
    return new OllamaChatModel({ host: settings.ollamaHost, responseTimeoutSeconds: settings.ollamaTimeoutSeconds });
  }

  /** Embeds turns in the background; a failure is logged and the turns stay findable by their words. */
  afterTurn(turns: readonly (TurnRecord | undefined)[]): void {
    const model = this.model;
    const recorded = turns.filter((turn): turn is TurnRecord => !!turn && turn.text.trim() !== '');
    if (!model || !this.vectors || recorded.length === 0) return;
    this.ollama()
      .embed(model, recorded.map((turn) => turn.text.slice(0, 8000)))
      .then((vectors) => this.vectors?.add(recorded.map((turn, i) => ({ key: turnVectorKey(turn.id), vector: vectors[i] }))))
      .catch((error: unknown) => this.log.warn(`embedding skipped (${model}): ${error instanceof Error ? error.message : String(error)}`));
  }

  /** The query's vector, or undefined when no embedding model is configured or it fails (words alone then). */
  async embedQuery(query: string): Promise<number[] | undefined> {
    const model = this.model;
    if (!model || !this.vectors) return undefined;
    try {
      return (await this.ollama().embed(model, [query]))[0];
    } catch (error) {
      this.log.warn(`query embedding skipped (${model}): ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    }
  }

  /** What recall needs to rank by meaning too, or undefined (words alone then). */
  async meaningOf(query: string): Promise<{ queryVector: number[]; vectors: VectorMemory } | undefined> {
    const queryVector = await this.embedQuery(query);
    return queryVector && this.vectors ? { queryVector, vectors: this.vectors } : undefined;
  }

  dispose(): void {
    this.vectors?.close();
  }
}
