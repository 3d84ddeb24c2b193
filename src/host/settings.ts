import * as vscode from 'vscode';

/** Engram's settings, read fresh each time so a change applies to the next request without a reload. */
export interface EngramSettings {
  readonly ollamaHost: string;
  /** The preferred Ollama model; empty means the first one the server lists. */
  readonly model: string;
  readonly ollamaTimeoutSeconds: number;
}

export const defaultOllamaHost = 'http://127.0.0.1:11434';

export function readSettings(): EngramSettings {
  const config = vscode.workspace.getConfiguration('engram');
  const host = config.get<string>('ollama.host', defaultOllamaHost).trim() || defaultOllamaHost;
  return {
    ollamaHost: host,
    model: config.get<string>('model', '').trim(),
    ollamaTimeoutSeconds: Math.max(5, config.get<number>('ollama.timeoutSeconds', 120)),
  };
}

export function affectsOllama(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration('engram.ollama') || event.affectsConfiguration('engram.model');
}
