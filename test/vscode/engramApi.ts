// Shared by the tests that run inside the extension host: the extension's API, and waiting for a chat turn.
import * as vscode from 'vscode';
import type { TurnOutcome } from '../../src/host/chatParticipant';
import type { EngramApi } from '../../src/host/extension';
import { FakeOllama as StandIn, type FakeOllama } from '../support/fakeOllama';

export const extensionId = 'engram-dev.engram';

export async function activeEngram(): Promise<EngramApi> {
  const extension = vscode.extensions.getExtension<EngramApi>(extensionId);
  if (!extension) throw new Error(`${extensionId} is not loaded in this host`);
  return extension.isActive ? extension.exports : extension.activate();
}

/** Sends a message through the real chat pipeline and resolves with the participant's outcome. */
export async function chat(api: EngramApi, query: string, timeoutMs = 30_000): Promise<TurnOutcome> {
  const outcome = new Promise<TurnOutcome>((resolve, reject) => {
    const timer = setTimeout(() => {
      listener.dispose();
      reject(new Error(`no reply from @engram to ${JSON.stringify(query)} within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = api.onDidFinishTurn((turn) => {
      clearTimeout(timer);
      listener.dispose();
      resolve(turn);
    });
  });
  await vscode.commands.executeCommand('workbench.action.chat.open', { query, isPartialQuery: false });
  return outcome;
}

export async function waitFor<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The stand-in model every suite scripts; its name is also set as `engram.model`. */
export const standInModel = 'stand-in:latest';

/** Starts the stand-in Ollama, points Engram at it, and returns Engram's API once active. */
export async function connectToStandIn(ollama: FakeOllama): Promise<EngramApi> {
  const url = await ollama.start();
  await vscode.workspace.getConfiguration('engram').update('ollama.host', url, vscode.ConfigurationTarget.Global);
  await vscode.workspace.getConfiguration('engram').update('model', standInModel, vscode.ConfigurationTarget.Global);
  return activeEngram();
}

/**
 * The set-up most suites share: a stand-in with the one model, Engram pointed at it, a new chat; the stand-in stops
 * after the suite. Call inside `describe`; `api()` is valid from the first test on.
 */
export function withStandInChat(): { readonly ollama: FakeOllama; api(): EngramApi } {
  const ollama = new StandIn({ models: [{ name: standInModel, family: 'llama', contextLength: 8192 }] });
  let api: EngramApi | undefined;
  before(async () => {
    api = await connectToStandIn(ollama);
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
  });
  after(() => ollama.stop());
  return {
    ollama,
    api: () => {
      if (!api) throw new Error('the suite has not connected to the stand-in yet');
      return api;
    },
  };
}
