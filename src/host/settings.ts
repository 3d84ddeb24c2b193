import * as vscode from 'vscode';
import { defaultShares, type BudgetShares } from '../core/context/assemble';
import { defaultContextLength } from '../core/turn/ollamaTurnModel';
import { defaultToolCap, toolLimit } from '../core/turn/toolChoice';

/** Engram's settings, read fresh each time so a change applies to the next request without a reload. */
export interface EngramSettings {
  readonly ollamaHost: string;
  /** The preferred Ollama model; empty means the first one the server lists. */
  readonly model: string;
  readonly ollamaTimeoutSeconds: number;
  /** The window Engram asks Ollama to run its models with (`num_ctx`), capped by each model's maximum. */
  readonly ollamaContextLength: number;
}

export const defaultOllamaHost = 'http://127.0.0.1:11434';

export function readSettings(): EngramSettings {
  const config = vscode.workspace.getConfiguration('engram');
  const host = config.get<string>('ollama.host', defaultOllamaHost).trim() || defaultOllamaHost;
  return {
    ollamaHost: host,
    model: config.get<string>('model', '').trim(),
    ollamaTimeoutSeconds: Math.max(5, config.get<number>('ollama.timeoutSeconds', 120)),
    ollamaContextLength: Math.max(512, Math.floor(config.get<number>('ollama.contextLength', defaultContextLength) || defaultContextLength)),
  };
}

/** The budget shares of the variable L0 blocks, from `engram.context.shares`; out-of-range values fall back. */
export function configuredShares(): BudgetShares {
  const configured = vscode.workspace.getConfiguration('engram').get<Partial<Record<keyof BudgetShares, unknown>>>('context.shares', {});
  const pick = (key: keyof BudgetShares): number => {
    const value = configured?.[key];
    return typeof value === 'number' && value >= 0 && value <= 0.5 ? value : defaultShares[key];
  };
  return { profile: pick('profile'), behaviours: pick('behaviours'), summary: pick('summary'), project: pick('project'), attachments: pick('attachments') };
}

/** Which of VS Code's tools @engram may offer besides the read-only ones, and how many tools one turn offers. */
export interface ToolSettings {
  /** Tool names, `tag:NAME`, or `*`: edit and terminal tools are offered only when listed here. */
  readonly allow: readonly string[];
  readonly maxOffered: number;
}

export function readToolSettings(): ToolSettings {
  const config = vscode.workspace.getConfiguration('engram');
  const allow = config.get<unknown>('tools.allow', []);
  const max = config.get<number>('tools.maxOffered', defaultToolCap);
  return {
    allow: Array.isArray(allow) ? allow.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '').map((entry) => entry.trim()) : [],
    maxOffered: Number.isFinite(max) ? Math.max(1, Math.min(toolLimit, Math.floor(max))) : defaultToolCap,
  };
}

export function affectsOllama(event: vscode.ConfigurationChangeEvent): boolean {
  return event.affectsConfiguration('engram.ollama') || event.affectsConfiguration('engram.model');
}
